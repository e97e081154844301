package comparison

import (
	"bytes"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/result"
)

// result is a step's run with one variant measured once per value of rps
// (several values: interleaved rounds, as RUNS=N keeps them).
func res(rps ...float64) *result.Result {
	r := &result.Result{Step: 2, Slug: "cache-aside", Params: map[string]any{"rounds": float64(len(rps))}}
	for _, v := range rps {
		run := result.Run{Variant: "cache-aside", RPS: v, PerRequest: result.PerRequest{DBQueries: 0.01}}
		r.Rounds = append(r.Rounds, []result.Run{run})
	}
	r.Runs = r.Rounds[len(rps)/2]
	if len(rps) == 1 {
		r.Rounds = nil
	}
	return r
}

func rpsRow(t *testing.T, a, b *result.Result) Row {
	t.Helper()
	for _, tb := range Compare(a, b) {
		if tb.Figure == "req/s" {
			return tb.Rows[0]
		}
	}
	t.Fatal("no req/s table")
	return Row{}
}

// TestSignificantChangeOverRounds: five rounds each, clearly apart, are a
// change; five rounds each from the same spread are "~".
func TestSignificantChangeOverRounds(t *testing.T) {
	a := res(1000, 1040, 980, 1010, 995)
	faster := res(1500, 1530, 1480, 1510, 1490)
	row := rpsRow(t, a, faster)
	if !row.Significant() || len(row.A.Values) != 5 || len(row.B.Values) != 5 {
		t.Fatalf("five rounds 50%% apart: %+v", row.Comparison)
	}
	if c := row.Change(); c < 0.45 || c > 0.55 {
		t.Errorf("change %.3f, want the medians' +50%% (1510 ÷ 1000 is the medians: 1500 ÷ 1000)", c)
	}
	same := res(1010, 990, 1030, 985, 1000)
	if row := rpsRow(t, a, same); row.Significant() {
		t.Errorf("two samples of one spread called a change: p=%.3f", row.Comparison.P)
	}
	var out bytes.Buffer
	Print(&out, "a.json", "b.json", a, same)
	if !strings.Contains(out.String(), " ~ ") || !strings.Contains(out.String(), "n=5") {
		t.Errorf("not benchstat's \"~ (p=… n=5)\":\n%s", out.String())
	}
	out.Reset()
	Print(&out, "a.json", "b.json", a, faster)
	if !strings.Contains(out.String(), "+50.00%") {
		t.Errorf("the significant change is not printed:\n%s", out.String())
	}
}

// TestOneRoundShowsTheChangeAndSaysWhyNoTest: RUNS=1 has one sample a side;
// the change is still printed, with the rounds a test needs.
func TestOneRoundShowsTheChangeAndSaysWhyNoTest(t *testing.T) {
	n := RoundsForATest()
	if n < 3 || n > 6 {
		t.Fatalf("benchmath's U-test needs %d rounds per side? (4 at alpha 0.05)", n)
	}
	var out bytes.Buffer
	Print(&out, "a.json", "b.json", res(1000), res(1500))
	s := out.String()
	for _, want := range []string{"+50.00% ¹", "n=1", "RUNS=", "DB queries / request"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
}

// TestTwoProbesOfDifferentServicesSaySo: two probes of two URLs are set
// side by side with both named, a note that they differ, and the errors
// row that shows one of them measured failures.
func TestTwoProbesOfDifferentServicesSaySo(t *testing.T) {
	probe := func(url string, rps float64, errors int64) *result.Result {
		return &result.Result{Step: -1, Slug: "probe of " + url, Params: map[string]any{"url": "http://" + url},
			Runs: []result.Run{{Variant: "GET /", RPS: rps, Errors: errors}}}
	}
	var out bytes.Buffer
	Print(&out, "a.json", "b.json", probe("127.0.0.1:1/", 12919, 25843), probe("127.0.0.1:8080/", 14044, 0))
	s := out.String()
	for _, want := range []string{"probe of 127.0.0.1:1/", "probe of 127.0.0.1:8080/", "different services", "errors", "25843"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
}
