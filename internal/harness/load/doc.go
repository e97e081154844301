// Package load drives load at a server and measures it: closed-loop
// virtual users like k6, on fasthttp's client so that the driver is never
// the bottleneck (net/http's client reaches only ~0.65× of wrk on one CPU),
// an HDR latency histogram per user, the open loop and the capacity search,
// wrk and k6 behind the same Measure, and the server's counters scraped at
// the timed window's edges.
package load
