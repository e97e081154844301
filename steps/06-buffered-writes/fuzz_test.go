package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
	"github.com/peakload/workshop/internal/harness/testseed"
)

// Generated bodies — valid events whose data is drawn to break the
// database's rules, and their truncations and byte flips — over the four
// routes, sent as JSON, as text/plain and chunked, against the real
// database. The properties: every answer is a 2xx, a 4xx naming the
// problem, or 503 + Retry-After (never another 5xx); and once flushed,
// every acknowledged event is persisted or dead-lettered — none lost,
// none left retrying — and the flush returns at once.
func TestGeneratedBodiesNeverPoisonTheWritePath(t *testing.T) {
	store := mongotest.Store(t)
	srv, flush := newServer(store)
	seed := testseed.Or(t, uint64(time.Now().UnixNano()))
	rng := rand.New(rand.NewPCG(seed, 6))
	routes := []string{"/events/sync", "/events/async", "/events/group", "/events/bulk"}
	accepted, codes := 0, map[int]int{}
	for i := range 1200 {
		body := genBody(rng)
		route := routes[rng.IntN(len(routes))]
		req := httptest.NewRequest(http.MethodPost, route, strings.NewReader(body))
		switch rng.IntN(3) {
		case 0:
			req.Header.Set("Content-Type", "application/json")
		case 1:
			req.Header.Set("Content-Type", "text/plain")
		default: // chunked: no length known up front
			req.Body, req.ContentLength = io.NopCloser(strings.NewReader(body)), -1
			req.Header.Set("Content-Type", "application/json")
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		codes[rec.Code]++
		switch c := rec.Code; {
		case c == 201 || c == 202:
			accepted++
		case c == 400 || c == 413 || c == 415 || c == 422 && route == "/events/sync":
			if !strings.Contains(rec.Body.String(), "error") && !strings.Contains(rec.Body.String(), "message") {
				t.Fatalf("case %d (replay: PEAKLOAD_SEED=%d): POST %s answered %d with no error body: %q", i, seed, route, c, rec.Body)
			}
		case c == 503 && rec.Header().Get("Retry-After") != "":
		default:
			t.Fatalf("case %d (replay: PEAKLOAD_SEED=%d): POST %s %.200q: %d %s — want 2xx, a 4xx naming the problem, or 503 + Retry-After",
				i, seed, route, body, c, rec.Body)
		}
	}
	// Counted, not timed: each event acknowledged and not yet stored costs
	// a right flush at most an insert and a dead letter; one that retries
	// a refusal for good sends insert after insert past that.
	pending := max(accepted-stored(t, store), 0)
	shutdownFlush(t, flush, fmt.Sprintf("after %d generated bodies (replay: PEAKLOAD_SEED=%d)", 1200, seed), float64(2*pending+mostInserts))
	persisted, dead := counts(t, store)
	if int(persisted+dead) != accepted {
		t.Fatalf("replay: PEAKLOAD_SEED=%d: %d acknowledged, %d persisted + %d dead-lettered (answers %v): an acknowledged event was lost",
			seed, accepted, persisted, dead, codes)
	}
	t.Logf("answers %v; %d acknowledged = %d persisted + %d dead-lettered; %d of them still to flush at shutdown", codes, accepted, persisted, dead, pending)
}

// stored counts the events persisted or dead-lettered so far.
func stored(t *testing.T, store *events.Store) int {
	t.Helper()
	persisted, dead := counts(t, store)
	return int(persisted + dead)
}

// counts returns the events persisted and those dead-lettered, apart.
func counts(t *testing.T, store *events.Store) (persisted, dead int64) {
	t.Helper()
	persisted, err := store.Count(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	dead, err = store.DeadLetterColl.CountDocuments(t.Context(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	return persisted, dead
}

// genBody is an event whose data is drawn toward the database's rules, or
// a broken copy of one.
func genBody(rng *rand.Rand) string {
	b := fmt.Sprintf(`{"event_name":"click","data":%s,"timestamp":1632404556}`, genJSON(rng, 0))
	switch rng.IntN(8) {
	case 0:
		return b[:rng.IntN(len(b))] // truncated
	case 1:
		x := []byte(b)
		x[rng.IntN(len(x))] = byte(rng.IntN(256)) // a byte flipped
		return string(x)
	}
	return b
}

func genJSON(rng *rand.Rand, depth int) string {
	keys := []string{`"a"`, `"b"`, `"0.95"`, `"$x"`, `"a$b"`, `""`, `"k\u0000"`, "\"k\xff\"", `"ü"`, `"a.b"`, `"x y"`, `"$oid"`, `"\ud800"`}
	var parts []string
	for range rng.IntN(4) {
		k := keys[rng.IntN(len(keys))]
		if rng.IntN(2) == 0 {
			k = `"` + string(rune('a'+rng.IntN(3))) + `"` // plain, and often repeated
		}
		parts = append(parts, k+":"+genValueJSON(rng, depth+1))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func genValueJSON(rng *rand.Rand, depth int) string {
	if depth > 110 {
		return "1"
	}
	switch n := rng.IntN(12); {
	case n < 3:
		return []string{"1", "-0", "1e308", "123456789012345678901234567890", "0.5", "true", "null"}[rng.IntN(7)]
	case n < 4:
		return []string{`"s"`, `"\u0000"`, "\"\xff\"", `"` + strings.Repeat("x", 100) + `"`}[rng.IntN(4)]
	case n < 7, depth > 40 && n < 10:
		return genJSON(rng, depth)
	default:
		var a []string
		for range rng.IntN(3) {
			a = append(a, genValueJSON(rng, depth+1))
		}
		return "[" + strings.Join(a, ",") + "]"
	}
}
