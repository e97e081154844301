package balancer

import (
	"testing"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/proc"
)

// Copies per item divide the loads by the distinct items that many
// requests touch: one process loads each item ~once per TTL; four behind
// hashing too.
func TestDistinctItems(t *testing.T) {
	p := params.Load()
	if d := distinctItems(p, 1e6); d < 99 || d > 101 {
		t.Errorf("a million requests touch %.1f distinct hot items, want the 100 of them", d)
	}
	if d := distinctItems(p, 10); d < 5 || d > 10 {
		t.Errorf("10 requests touch %.1f distinct items, want most of them distinct but not all (the skew)", d)
	}
}

// A window sums the replicas' deltas; a replica stopped at either end
// counts nothing, and the span is read from the scrapes' stamps.
func TestSumWindow(t *testing.T) {
	served := "peakload_http_requests_total{route=" + ItemRoute + "}"
	hit, miss := "peakload_cache_lookups_total{result=hit,tier=memory}", "peakload_cache_lookups_total{result=miss,tier=memory}"
	from := []proc.Counters{{served: 10, hit: 0, miss: 0, scrapedAt: 100}, {served: 5, scrapedAt: 100}, nil}
	to := []proc.Counters{{served: 40, hit: 27, miss: 3, scrapedAt: 102.5}, nil, {served: 7}}
	w := sumWindow(from, to)
	if w.served != 30 || w.perReplica[0] != 30 || w.perReplica[1] != 0 || w.perReplica[2] != 0 {
		t.Errorf("served %v, per replica %v; want 30, [30 0 0] (the stopped ones count nothing)", w.served, w.perReplica)
	}
	if r := w.hitRatio(); r != 0.9 {
		t.Errorf("hit ratio %v, want 0.9", r)
	}
	if s := scrapeSpan(from, to); s != 2.5 {
		t.Errorf("span %v s, want 2.5", s)
	}
	if (window{}).hitRatio() != 0 {
		t.Error("no lookup: hit ratio not 0")
	}
}
