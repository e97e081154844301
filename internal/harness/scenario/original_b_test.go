package scenario

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// The claims on article B's own stacks read their own rows, and only
// them, both ways; without those rows they are not judged, saying why.
func TestClaimsOnBsOwnStacks(t *testing.T) {
	on := func(stack string, v course.Variant, rps float64, extra map[result.Key]float64) result.Run {
		return result.Run{Variant: course.On(stack, v), RPS: rps, Requests: 1000, DurationS: 10, Extra: extra}
	}
	kept := map[result.Key]float64{result.Accepted: 1000, result.Persisted: 1000}
	r := &result.Result{Runs: []result.Run{
		{Variant: "empty-get", RPS: 50000}, {Variant: "empty-post", RPS: 10000}, // Go's 0.20×: NOT reproduced in Go
		on(course.Express, course.EmptyGet, 5000, nil), on(course.Express, course.EmptyPost, 3700, nil), // 0.74×
		on(course.Koa, course.EmptyGet, 9000, nil), on(course.Koa, course.EmptyPost, 8700, nil), // 0.97×: above the band
		on(course.NodeJS, course.RawSeq, 2000, nil), on(course.NodeJS, course.Raw100, 6000, nil), // 3×
		on(course.Express, course.Sync, 1500, kept), on(course.Express, course.Async, 1800, kept),
		on(course.Koa, course.Sync, 1500, kept), on(course.Koa, course.Bulk, 1500, map[result.Key]float64{result.Accepted: 1000, result.Persisted: 990}),
		on(course.Koa, course.Async, 1500, map[result.Key]float64{result.PersistedPerS: 600}), on(course.Koa, course.Group, 1500, map[result.Key]float64{result.PersistedPerS: 500}),
	}}
	want := map[string]*bool{"B2": result.Verdict(false), "B2-express": result.Verdict(true), "B2-koa": result.Verdict(false),
		"B4-node": result.Verdict(true), "B-kept-express": result.Verdict(true)}
	claims := append(markInGo(postClaim(r)), append(bPostClaims(r), bWriteClaims(r)...)...)
	for _, c := range claims {
		w, ok := want[c.ID]
		if !ok {
			continue
		}
		delete(want, c.ID)
		if c.Reproduced == nil || *c.Reproduced != *w {
			t.Errorf("%s: %v (%s), want %v", c.ID, c.Reproduced, c.Measured, *w)
		}
		if c.ID == "B2" {
			continue
		}
		if !strings.Contains(c.Article, "on the source's stack, here") {
			t.Errorf("%s does not say it is judged on the source's stack: %s", c.ID, c.Article)
		}
		stack := c.ID[strings.LastIndex(c.ID, "-")+1:] // B-kept-koa: koa
		for _, row := range c.Rows {
			if _, ok := course.Off(stack, course.Variant(row)); !ok {
				t.Errorf("%s names the row %s, not its own stack's", c.ID, row)
			}
		}
	}
	for id := range want {
		t.Errorf("no claim %s", id)
	}
	if c := markInGo(postClaim(r))[0]; !strings.HasPrefix(c.Article, "[in Go] ") {
		t.Errorf("B2 beside its twin does not say it is Go's: %s", c.Article)
	}
	for _, c := range bPostClaims(r)[1:] {
		if !strings.Contains(c.Source.Ref, "Koa") || strings.Contains(c.Article, "4026") || strings.Contains(c.Article, "1968") {
			t.Errorf("%s is not told with Koa's own README rows: %s (%s)", c.ID, c.Article, c.Source.Ref)
		}
	}

	// no Node here: the Go rows alone, every claim on the source's stack not judged
	goOnly := &result.Result{Runs: r.Runs[:2]}
	for _, c := range append(bPostClaims(goOnly), bWriteClaims(goOnly)...) {
		if c.Reproduced != nil || !strings.HasPrefix(c.Measured, "not judged: the source's own stack did not run here") || c.Vi.Measured == "" {
			t.Errorf("%s without its rows: %v (%s), want not judged, saying why in both languages", c.ID, c.Reproduced, c.Measured)
		}
	}
}

// B4-node below the author's ratio on FerretDB says so, why, and what a
// real mongod changes, in both languages; on mongod it says nothing of
// FerretDB.
func TestB4NodeSaysItRanOnFerretDB(t *testing.T) {
	for _, mongo := range []string{"FerretDB 1.24 on PostgreSQL", "mongod 7.0.16"} {
		r := &result.Result{Machine: result.Machine{Mongo: mongo}, Runs: []result.Run{
			{Variant: course.On(course.NodeJS, course.RawSeq), RPS: 2200}, {Variant: course.On(course.NodeJS, course.Raw100), RPS: 3800}, // 1.73×
		}}
		c := rawNode.onStack(r, rawConcurrencyClaim)
		said := strings.Contains(c.Measured, "taken on FerretDB") && strings.Contains(c.Measured, "compose") && strings.Contains(c.Vi.Measured, "compose")
		if ferret := strings.HasPrefix(mongo, "FerretDB"); said != ferret {
			t.Errorf("B4-node on %s: %q / %q; want the FerretDB note: %v", mongo, c.Measured, c.Vi.Measured, ferret)
		}
	}
}
