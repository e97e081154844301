package result

import (
	"math"
	"strconv"
)

// Series is one run's intervals, warm-up and drain included.
type Series struct {
	// EveryS is the interval length: 1 s, or shorter when a step's events
	// are faster (step 4's 300 ms TTL).
	EveryS float64 `json:"every_s"`
	// WindowS is the timed window the table measured, in seconds since the
	// load started: points before it are the warm-up, points after it the
	// drain (step 6's batcher persisting what it accepted).
	WindowS [2]float64 `json:"window_s"`
	// Clients says rps, p50, p99 and errors are the driver's own; without
	// it (another tool) rps is what the server counted on the route.
	Clients bool    `json:"clients"`
	Points  []Point `json:"points"`
	// Events are moments a drill marked (Redis stopped, started again).
	Events []Event `json:"events,omitempty"`
}

// Event is a marked moment, in seconds since the load started.
type Event struct {
	T    float64 `json:"t"`
	What string  `json:"what"`
}

// Point is one interval. Rates are per second whatever the interval.
type Point struct {
	T      float64 `json:"t"` // seconds since the load started, at the interval's end
	RPS    float64 `json:"rps"`
	P50    float64 `json:"p50_ms,omitempty"`
	P99    float64 `json:"p99_ms,omitempty"`
	Errors int64   `json:"errors,omitempty"`
	// ServerCPU is how many CPUs the server kept busy (1 = one whole CPU).
	ServerCPU  float64 `json:"server_cpu,omitempty"`
	DBQueries  float64 `json:"db_queries_per_s,omitempty"`
	RedisBytes float64 `json:"redis_bytes_per_s,omitempty"`
	// BodyBytes is response bodies on the variant's route (step 3's
	// public bandwidth), or on every route when the route is not known.
	BodyBytes  float64 `json:"body_bytes_per_s,omitempty"`
	Persisted  float64 `json:"persisted_per_s,omitempty"`
	QueueDepth float64 `json:"queue_depth,omitempty"` // a gauge: events waiting when scraped
	// NoScrape: the server did not answer /metrics in this interval (it
	// was down); its counters are folded into the next point that has them.
	NoScrape bool `json:"no_scrape,omitempty"`
	// NoRPS: another tool drove the load and the server counts no request
	// on the route: req/s is unknown here, not zero.
	NoRPS bool `json:"no_rps,omitempty"`
}

// Rounded keeps four significant digits (the results files stay readable;
// no figure here is known better than that) and the time to the millisecond.
func (p Point) Rounded() Point {
	sig := func(v float64) float64 {
		f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
		return f
	}
	p.T = math.Round(p.T*1000) / 1000
	p.RPS, p.P50, p.P99, p.ServerCPU = sig(p.RPS), sig(p.P50), sig(p.P99), sig(p.ServerCPU)
	p.DBQueries, p.RedisBytes, p.Persisted, p.QueueDepth = sig(p.DBQueries), sig(p.RedisBytes), sig(p.Persisted), sig(p.QueueDepth)
	p.BodyBytes = sig(p.BodyBytes)
	return p
}
