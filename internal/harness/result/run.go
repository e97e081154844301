package result

import "github.com/peakload/workshop/internal/harness/course"

// Run is what one variant measured.
type Run struct {
	Variant course.Variant `json:"variant"`
	Route   string         `json:"route"`
	Tool    string         `json:"tool"`
	// CountedAt is "services" for a source's original (ORIGINAL=1): its
	// per-request counts were read at the databases (pg_stat_statements,
	// Redis INFO, MongoDB serverStatus), not from a /metrics of its own.
	CountedAt  string          `json:"counted_at,omitempty"`
	VUs        int             `json:"vus"`
	Requests   int64           `json:"requests"`
	Errors     int64           `json:"errors"`
	DurationS  float64         `json:"duration_s"`
	RPS        float64         `json:"rps"`
	Latency    Latency         `json:"latency_ms"`
	PerRequest PerRequest      `json:"per_request"`
	Extra      map[Key]float64 `json:"extra,omitempty"`
	FirstError string          `json:"first_error,omitempty"`
	// ServerPeakRSSMB is the server's peak resident memory (VmHWM) at the
	// end of the run; with a server per variant, that variant's own.
	ServerPeakRSSMB float64 `json:"server_peak_rss_mb,omitempty"`
	// Spread is how req/s varied when the row combines several rounds.
	Spread *Spread `json:"spread,omitempty"`
	// Series is the run interval by interval, warm-up and drain included.
	Series *Series `json:"series,omitempty"`
	// Arrival is set for an open-loop run: the schedule and how it was kept.
	Arrival *Arrival `json:"arrival,omitempty"`
	// ClientCPUus is the load tool's CPU time per request (the Go driver's
	// process, wrk's or k6's), and ClientBound says the tool, not the
	// server, was the limit (client.go states the rule).
	ClientCPUus float64 `json:"client_cpu_us,omitempty"`
	ClientBound bool    `json:"client_bound,omitempty"`
	// ExactCounts: DB queries, Redis bytes and GETs per request were
	// counted per completed request (counts.go), not divided at the
	// window's edges.
	ExactCounts bool `json:"exact_counts,omitempty"`
	// Served is the requests those per-request counts divide by: the
	// server's count for the route in the window.
	Served float64 `json:"served,omitempty"`
	// OtherCPU is the share of the CPUs the server, the load tool and the
	// databases ran on that other processes took during the window (the
	// largest over those CPUs' groups, busy.go): 0.3 = 30 % of that time
	// went to something else, so a rate measured then is partly the
	// neighbours'. 0 when not measured (not Linux, a server or databases
	// whose CPU the bench cannot read).
	OtherCPU float64 `json:"other_cpu,omitempty"`
}

// Latency percentiles in milliseconds.
type Latency struct {
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// PerRequest is the cost of one request: bytes the clients received (status
// line, headers and body: the "public bandwidth"), and what the server's
// counters say it did.
type PerRequest struct {
	PublicBytes float64 `json:"public_bytes"`
	DBQueries   float64 `json:"db_queries"`
	RedisBytes  float64 `json:"redis_bytes"`
	ServerCPUus float64 `json:"server_cpu_us"`
}
