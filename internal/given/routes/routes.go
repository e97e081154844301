// Package routes names the step servers' routes once: the servers register
// them, and the bench labels its rows with them and requests them, without
// linking a server (echo, the caches). A route is written as echo writes
// it, its id a :id parameter. Every string constant here is also k6's:
// `make docs` writes k6/lib/routes.js from this file (one constant a line,
// its trailing comment kept), so a route or a name both tools share, such
// as a header, is declared here once.
package routes

import (
	"strconv"
	"strings"
)

// The read path's routes: each serves one item by id, and its prefix
// names how (steps 1–5, and step 10's replicas).
const (
	Items     = "/items/:id"           // one PostgreSQL query (step 1 on)
	Cached    = "/cached/items/:id"    // cache-aside through Redis (step 2 on)
	ETag      = "/etag/items/:id"      // cached, with revalidation (step 3 on)
	Coalesced = "/coalesced/items/:id" // cached, one load per key at a time (step 4 on)
	Burst     = "/burst/items/:id"     // in-process, a burst of reads at one expiry (step 5, step 10's replicas)
	Change    = "/items/:id/change"    // POST: changes an item's live stats (step 10)
)

// The shell's and step 9's routes.
const (
	Empty    = "/empty"    // no work, a body as big as an item's
	Validate = "/validate" // POST: strict validation of an event, article D's strict validation at the gateway
)

// Step 6's write routes: POST one event, stored as each way says.
const (
	EventsSync  = "/events/sync"  // inserted before the answer
	EventsAsync = "/events/async" // answered at once, inserted in the background
	EventsGroup = "/events/group" // answered once its group is inserted
	EventsBulk  = "/events/bulk"  // buffered, inserted in bulk
)

// Step 7's counter routes: POST one like of stream :id, counted as each
// way says.
const (
	CountersSync   = "/counters/sync/:id"   // one $inc per like, before the answer
	CountersAsync  = "/counters/async/:id"  // one $inc per like, in the background
	CountersBulk   = "/counters/bulk/:id"   // one $inc per like, sent in bulk
	CountersReduce = "/counters/reduce/:id" // likes summed per stream, one $inc per stream per batch
)

// Step 8's logins: the same check behind a lock held for the whole hash
// (v1) and only around the map (v2).
const (
	LoginV1 = "/v1/login"
	LoginV2 = "/v2/login"
)

// Prefix is the part of an item route before its id: "/cached/items/".
func Prefix(route string) string {
	p, _, _ := strings.Cut(route, ":id")
	return p
}

// Path is route with id in place of :id: Path(Cached, 7) is "/cached/items/7".
func Path(route string, id int) string {
	return strings.Replace(route, ":id", strconv.Itoa(id), 1)
}

// GET and POST are a route as the results and k6's tags name it:
// "GET /cached/items/:id".
func GET(route string) string  { return "GET " + route }
func POST(route string) string { return "POST " + route }
