package metrics

import (
	"maps"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// CountResponse adds one response of size body bytes to Requests and
// ResponseBytes. It runs on every request of every step, so it does the
// least it can: WithLabelValues hashes three label values and takes a lock
// each time it is called; here a series is resolved once, on the first
// response with that route, method and status, and found again in a map
// read without a lock. What remains per request is that lookup and two
// atomic adds.
func CountResponse(route, method string, status int, body int64) {
	k := series{route, knownMethod(method), status}
	s, ok := (*responses.Load())[k]
	if !ok {
		s = resolve(k)
	}
	s.requests.Inc()
	s.bytes.Add(float64(body)) // whole numbers: an atomic integer add, no float CAS loop
}

type series struct {
	route, method string
	status        int
}

type counters struct{ requests, bytes prometheus.Counter }

// responses is copied on write: a new series (a few dozen over a server's
// life) pays for a copy, so that every other response reads without a lock.
var (
	responses   atomic.Pointer[map[series]counters]
	resolveLock sync.Mutex
)

func init() { responses.Store(&map[series]counters{}) }

func resolve(k series) counters {
	resolveLock.Lock()
	defer resolveLock.Unlock()
	old := *responses.Load()
	if s, ok := old[k]; ok {
		return s
	}
	status := strconv.Itoa(k.status)
	s := counters{Requests.WithLabelValues(k.route, k.method, status), ResponseBytes.WithLabelValues(k.route, k.method, status)}
	m := maps.Clone(old)
	m[k] = s
	responses.Store(&m)
	return s
}

// knownMethod keeps the method label bounded: a client may send any token
// as a method, and each would otherwise become a series of its own.
func knownMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}
