package catalog_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

func TestItemIsOneQueryAndMatchesTheGenerator(t *testing.T) {
	s := stacktest.Store(t)
	ctx := t.Context()
	before := testutil.ToFloat64(metrics.DBQueries)
	row, err := s.Item(ctx, 4242)
	if err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(metrics.DBQueries) - before; got != 1 {
		t.Fatalf("Item made %v queries, want 1", got)
	}
	want := catalog.Sample()
	if row.Title != want.Title || row.Description != want.Description || len(row.Tags) != len(want.Tags) {
		t.Fatalf("seeded item 4242 differs from the generator's sample:\n%+v\n%+v", row, want)
	}
	if row.UniqueViewers < 100 {
		t.Fatalf("audience aggregate is %d: the views log looks empty", row.UniqueViewers)
	}
	for _, id := range []int32{1, 777, 99_999} {
		r, err := s.Item(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r.Response())
		if len(b) < 1000 || len(b) > 2048 {
			t.Errorf("item %d renders to %d bytes, want 1–2 KB", id, len(b))
		}
	}
}

func TestUnknownItem(t *testing.T) {
	s := stacktest.Store(t)
	if _, err := s.Item(t.Context(), 100_001); !errors.Is(err, catalog.ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
}

func TestParseID(t *testing.T) {
	for _, ok := range []string{"1", "100000", "2147483647"} {
		t.Run("accepts "+ok, func(t *testing.T) {
			if _, err := catalog.ParseID(ok); err != nil {
				t.Error(err)
			}
		})
	}
	for _, bad := range []string{"", "0", "-1", "abc", "1.5", "2147483648", "1e3", " 1", "0x10"} {
		t.Run(fmt.Sprintf("rejects %q", bad), func(t *testing.T) {
			if _, err := catalog.ParseID(bad); err == nil {
				t.Errorf("%q accepted", bad)
			}
		})
	}
}

func TestWorkerChangesTheStats(t *testing.T) {
	s := stacktest.Store(t)
	ctx := t.Context()
	before, _ := s.Item(ctx, 4242)
	if err := catalog.UpdateStats(ctx, s.Pool, []int32{4242}); err != nil {
		t.Fatal(err)
	}
	after, _ := s.Item(ctx, 4242)
	if !after.StatsUpdated.After(before.StatsUpdated) || after.Likes == before.Likes {
		t.Fatalf("stats did not change: %v → %v", before.StatsUpdated, after.StatsUpdated)
	}
}

func TestSkewIsHotAndZipf(t *testing.T) {
	sk := catalog.NewSkew(100_000, 100, 0.9, 7919, 1.0)
	rank := map[int32]int{}
	for k, id := range sk.HotIDs() {
		rank[id] = k
	}
	if len(rank) != 100 {
		t.Fatalf("%d distinct live ids, want 100 (stride not coprime with items?)", len(rank))
	}
	r := rand.New(rand.NewPCG(1, 2))
	n, live, top := 200_000, 0, 0
	for range n {
		id := sk.Pick(r)
		if id < 1 || id > 100_000 {
			t.Fatalf("id %d out of range", id)
		}
		if k, ok := rank[id]; ok {
			live++
			if k == 0 {
				top++
			}
		}
	}
	if share := float64(live) / float64(n); share < 0.89 || share > 0.91 {
		t.Fatalf("%.3f of picks on live items, want ~0.90", share)
	}
	// Zipf s=1 over 100 ranks: rank 1 takes 1/H(100) = 19.3% of live reads.
	if share := float64(top) / float64(live); share < 0.18 || share > 0.21 {
		t.Fatalf("the top stream takes %.3f of live reads, want ~0.193", share)
	}
}
