package scenario

import (
	"encoding/json"
	"github.com/peakload/workshop/internal/messages"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/result"
)

// The Vietnamese lines of a claim (issue 24) say what the English says:
// an article's claim prints the original sentence itself, verbatim (the
// seed test checks Source.Quote against the article), not a translation
// back from the English; and a translation brings no figure the English
// lacks (nor the quote, when the figure is the article's own words).
func TestVietnameseClaimLines(t *testing.T) {
	translated := 0
	for _, c := range everyClaim(t) {
		if c.Vi.Text == "" {
			continue // printed in English until translated
		}
		translated++
		if q := c.Source.Quote; q != "" && !strings.Contains(normal(c.Vi.Text), normal(q)) {
			t.Errorf("%s: the Vietnamese text does not quote the article's sentence %q: %q", c.ID, q, c.Vi.Text)
		}
		if c.Vi.Tolerance == "" {
			t.Errorf("%s: the text is translated, the tolerance is not", c.ID)
		}
		sameFigures(t, c.ID+" text", c.Vi.Text, c.Article+" "+c.Source.Quote)
		sameFigures(t, c.ID+" tolerance", c.Vi.Tolerance, c.Tolerance)
	}
	if translated == 0 {
		t.Error("no claim has Vietnamese lines")
	}
}

// sameFigures: every number of vi is one of en's, so a translation cannot
// change a figure (5.3 may be written 5,3).
func sameFigures(t *testing.T, what, vi, en string) {
	t.Helper()
	theirs := figures(en)
	for _, f := range slices.Sorted(maps.Keys(figures(vi))) {
		if !theirs[f] && !theirs[messages.SwapDecimalMarks(f)] {
			t.Errorf("%s: the Vietnamese gives %s, which the English does not: %q / %q", what, f, vi, en)
		}
	}
}

// TestVietnameseMeasuredLines: judged on a run, a translated claim's
// measured line is Vietnamese too, with the English's figures.
func TestVietnameseMeasuredLines(t *testing.T) {
	r := &result.Result{Runs: []result.Run{
		{Variant: "empty-get", RPS: 60000},
		{Variant: "direct-db", RPS: 2000, PerRequest: result.PerRequest{DBQueries: 1}},
		{Variant: "cache-aside", RPS: 30000, PerRequest: result.PerRequest{DBQueries: 0.003}, Extra: map[string]float64{"redis_hit_ratio": 0.997}},
	}}
	c := cacheAsideClaim(r)
	if c.Vi.Measured == "" || c.Vi.Measured == c.Measured {
		t.Fatalf("A2's measured line is not translated: %q", c.Vi.Measured)
	}
	sameFigures(t, "A2 measured", c.Vi.Measured, c.Measured)
	if !strings.Contains(c.Vi.Measured, "mỗi request") {
		t.Errorf("A2 measured: %q", c.Vi.Measured)
	}
	// The JSON keeps one language: the Vietnamese lines are printed, never stored.
	if b, _ := json.Marshal(c); strings.Contains(string(b), c.Vi.Measured) || strings.Contains(string(b), c.Vi.Tolerance) {
		t.Errorf("the claim's JSON stores its Vietnamese lines: %s", b)
	}
}
