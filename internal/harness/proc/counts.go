package proc

// Work is what the server did for one route's requests over a window: the
// divisor and the counts the table's "per request" columns divide.
//
// Which counters a row uses:
//   - DB q/req, Redis B/req and redis_gets_per_req use the completed
//     counters (metrics.Tally): each request's own work, added when its
//     response is counted, so a window holds a request's work exactly when
//     it holds its response, whatever is in flight at its edges;
//   - a server without them (make probe on another service) falls back to
//     the global counters divided by the requests counted between the
//     scrapes: off by the work of the requests in flight at each edge;
//   - work on no request's behalf (a worker, a batch flush, the write
//     path's round trips) is in the global counters only: the write path is
//     counted once the server settled (settle), step 4 counts every query
//     of its window per key expiry (db_queries_in_window).
type Work struct {
	Requests, DBQueries, RedisBytes, RedisGets float64
	// Exact: counted per completed request, not divided at the edges.
	Exact bool
}

// RequestWork reads route's work between two scrapes.
func RequestWork(before, after Counters, route string) Work {
	d := func(key string) float64 { return Delta(before, after, key) }
	sel := "{route=" + route + "}"
	if _, ok := after["peakload_completed_requests_total"+sel]; ok {
		return Work{Requests: d("peakload_completed_requests_total" + sel), DBQueries: d("peakload_completed_db_queries_total" + sel),
			RedisBytes: d("peakload_completed_redis_bytes_total" + sel), RedisGets: d("peakload_completed_redis_gets_total" + sel), Exact: true}
	}
	return Work{Requests: d("peakload_http_requests_total" + sel), DBQueries: d("peakload_db_queries_total"),
		RedisBytes: d("peakload_redis_read_bytes_total") + d("peakload_redis_written_bytes_total"),
		RedisGets:  d("peakload_redis_commands_total{cmd=get}")}
}

// Add sums two windows (step 10: one per replica); the sum is exact when
// both are.
func (w Work) Add(o Work) Work {
	exact := (w.Exact || w.Requests == 0) && (o.Exact || o.Requests == 0) && (w.Exact || o.Exact)
	return Work{w.Requests + o.Requests, w.DBQueries + o.DBQueries, w.RedisBytes + o.RedisBytes, w.RedisGets + o.RedisGets, exact}
}

// Per divides a count by the requests (0 when there were none).
func (w Work) Per(count float64) float64 {
	if w.Requests <= 0 {
		return 0
	}
	return count / w.Requests
}
