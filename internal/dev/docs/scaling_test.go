package docs

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// TestScalingDocHasEveryRegion: docs/scaling.md carries every region the
// generator writes — a section whose region was deleted would keep its prose
// and lose its figures without TestDocsAreCurrent noticing.
func TestScalingDocHasEveryRegion(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "scaling.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range scalingRegions {
		if !strings.Contains(string(b), "<!-- reference:"+name+" -->\n") {
			t.Errorf("docs/scaling.md has no <!-- reference:%s --> region", name)
		}
	}
	for _, link := range []string{"README.md", "docs/facilitator.md"} {
		l, err := os.ReadFile(filepath.Join("..", "..", "..", link))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(l), "scaling.md") {
			t.Errorf("%s does not link docs/scaling.md", link)
		}
	}
}

// TestScalingFollowsTheRuns: the sizing is arithmetic on the reference runs,
// not text: doubling a run's CPU per request doubles the cores the page
// asks for, and a run that is missing is an error, not a silent blank.
func TestScalingFollowsTheRuns(t *testing.T) {
	refs, err := loadReferences(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	burst := refs.runs[5].Find("burst")
	top := levels[len(levels)-1] * baseRPS()
	want := func(us float64) string {
		return fmt.Sprintf("| 5: burst | %s | %d |", scenario.Rate(top), int(math.Ceil(top*us/1e6/targetBusy)))
	}
	out, err := refs.scaling("scaling-size", messages.English)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, want(burst.PerRequest.ServerCPUus)) {
		t.Errorf("scaling-size lacks the row %q:\n%s", want(burst.PerRequest.ServerCPUus), out)
	}

	// The same references with step 5's burst run twice as costly.
	res := *refs.runs[5]
	res.Runs = append([]result.Run(nil), res.Runs...)
	res.Find("burst").PerRequest.ServerCPUus *= 2
	costly := *refs
	costly.runs = map[int]*result.Result{}
	for n, r := range refs.runs {
		costly.runs[n] = r
	}
	costly.runs[5] = &res
	out2, err := costly.scaling("scaling-size", messages.English)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out2, want(2*burst.PerRequest.ServerCPUus)) {
		t.Errorf("with the burst run's µs/req doubled, scaling-size lacks %q:\n%s", want(2*burst.PerRequest.ServerCPUus), out2)
	}

	// Step 10's measured rows appear once its reference run exists.
	costly.runs[scaleOutStep] = &result.Result{Runs: []result.Run{{Variant: "round-robin-4", RPS: 1234, Extra: map[result.Key]float64{result.MemoryHitRatio: 0.5}}}}
	lb, err := costly.scaling("scaling-lb", messages.English)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lb, "| round-robin-4 | 1 234 |") || !strings.Contains(lb, "| 50.0 % |") {
		t.Errorf("scaling-lb does not list step %d's measured rows:\n%s", scaleOutStep, lb)
	}

	res.Runs = slicesWithout(res.Runs, "burst")
	if _, err := costly.scaling("scaling-lb", messages.English); err == nil {
		t.Error("a reference run without its burst row was accepted")
	}
	if _, err := refs.scaling("scaling-nonsense", messages.English); err == nil {
		t.Error("an unknown scaling region was accepted")
	}
}

func slicesWithout(runs []result.Run, variant course.Variant) []result.Run {
	var out []result.Run
	for _, x := range runs {
		if x.Variant != variant {
			out = append(out, x)
		}
	}
	return out
}

func TestZipfTop(t *testing.T) {
	for _, c := range []struct {
		n    int
		s, w float64
	}{{1, 1, 1}, {2, 1, 2.0 / 3}, {4, 0, 0.25}} {
		if got := zipfTop(c.n, c.s); math.Abs(got-c.w) > 1e-12 {
			t.Errorf("zipfTop(%d, %g) = %g, want %g", c.n, c.s, got, c.w)
		}
	}
}

// TestNoRunFigureOutsideScalingRegions: docs/scaling.md is made of unit
// costs, so beyond the ratios and rates TestNoReferenceFigureOutsideRegions
// knows, a per-request figure of any reference run (server µs, bytes, hit
// ratios) typed into its prose is caught too, as the generator writes it.
func TestNoRunFigureOutsideScalingRegions(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	refs, err := loadReferences(root)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "scaling.md"))
	if err != nil {
		t.Fatal(err)
	}
	prose := regionRE.ReplaceAllString(string(b), "")
	for _, f := range runFigures(refs) {
		if regexp.MustCompile(`(^|[^\d.,])` + regexp.QuoteMeta(f.text) + `($|[^\d])`).MatchString(prose) {
			t.Errorf("docs/scaling.md: %q (%s) is typed outside a generated region: generate it in internal/dev/docs/scaling.go", f.text, f.from)
		}
	}
	// The check itself must be able to fail.
	if len(runFigures(refs)) == 0 {
		t.Fatal("no figures to look for")
	}
	f := runFigures(refs)[0]
	if !regexp.MustCompile(`(^|[^\d.,])` + regexp.QuoteMeta(f.text) + `($|[^\d])`).MatchString("costs " + f.text + " µs") {
		t.Errorf("the pattern for %q does not match it in prose", f.text)
	}
}

type runFigure struct{ text, from string }

// runFigures are the per-request figures of the reference runs in the forms
// scaling.go writes them; only figures of three or more significant digits,
// so a "1.00" or a "100" of the prose's own is not mistaken for one.
func runFigures(refs *references) []runFigure {
	var out []runFigure
	seen := map[string]bool{}
	add := func(s, from string) {
		if !seen[s] && len(strings.Trim(strings.NewReplacer(".", "", " ", "", "%", "").Replace(s), "0")) >= 3 {
			seen[s] = true
			out = append(out, runFigure{s, from})
		}
	}
	for n, r := range refs.runs {
		for _, x := range r.Runs {
			from := fmt.Sprintf("step %d %s", n, x.Variant)
			if x.PerRequest.ServerCPUus >= 10 {
				add(sig(x.PerRequest.ServerCPUus), from+" server µs/req")
			}
			if x.PerRequest.PublicBytes >= 100 {
				add(scenario.Rate(x.PerRequest.PublicBytes), from+" public B/req")
			}
			if x.PerRequest.RedisBytes >= 100 {
				add(scenario.Rate(x.PerRequest.RedisBytes), from+" Redis B/req")
			}
			for _, k := range []result.Key{result.RedisHitRatio, result.MemoryHitRatio, result.Status304Share} {
				if v, ok := x.Extra[k]; ok {
					add(pct(v), from+" "+string(k))
				}
			}
		}
	}
	return out
}
