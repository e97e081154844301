package scenario

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// TestToleranceFiguresComeFromTheirValues: every figure of every claim's
// tolerance line, in English and in Vietnamese, declared and judged again
// on the step's reference run, is written by one of the values the line
// was stated from (result.Claim.Tolerate: course.Band, course.Bound,
// course.Factor), which are the values its verdict is judged by; or it is
// a figure the claim cites (its text, its source's quote). A bound typed
// into the sentence by hand, which the verdict would not follow if the
// value moved, fails here.
func TestToleranceFiguresComeFromTheirValues(t *testing.T) {
	env := Env{Params: params.Load(), Original: true}
	claims := everyClaim(t)
	for _, s := range All() {
		if s.Claims != nil && !s.Unrecorded {
			r := referenceRun(t, s.N)
			claims = append(claims, s.Claims(&r, env)...)
		}
	}
	for _, c := range claims {
		for _, l := range []messages.Lang{messages.English, messages.Vietnamese} {
			if line := c.LinesIn(l).Tolerance; strings.Contains(line, "%!") {
				t.Errorf("%s (%s): a value is missing from the tolerance line, or left over: %q", c.ID, l, line)
			}
			if lone := loneFigures(c, l); len(lone) > 0 {
				t.Errorf("%s (%s): the tolerance writes %v by hand, not from a value it was stated from (Tolerate): %q", c.ID, l, lone, c.LinesIn(l).Tolerance)
			}
		}
	}
}

// The test above can fail: a claim whose sentence still types its bound
// beside the value that judges is caught, in either language.
func TestAHandTypedBoundIsCaught(t *testing.T) {
	c := shellClaim(&result.Result{})
	if lone := loneFigures(c, messages.English); len(lone) > 0 {
		t.Fatalf("S0 as declared: %v", lone)
	}
	typed := c // the mutation: the value moved, the sentence kept its figure
	typed.Tolerate("bare-with-timeouts ÷ full shell ≥ 0.95", "echo trần có timeout ÷ đủ lớp vỏ %s", course.AtLeast(0.9))
	if lone := loneFigures(typed, messages.English); !slices.Equal(lone, []string{"0.95"}) {
		t.Errorf("a hand-typed 0.95 beside a 0.9 bound: caught %v, want [0.95]", lone)
	}
	if lone := loneFigures(typed, messages.Vietnamese); len(lone) > 0 {
		t.Errorf("the Vietnamese line written from the value: caught %v", lone)
	}
	typed.Vi.Tolerance = strings.Replace(typed.Vi.Tolerance, "0.9", "0.95", 1)
	if lone := loneFigures(typed, messages.Vietnamese); !slices.Equal(lone, []string{"0.95"}) {
		t.Errorf("a hand-typed Vietnamese 0.95: caught %v, want [0.95]", lone)
	}
}

// notFigures are the names a tolerance line may carry that hold digits:
// another claim's id ("as C1"), a percentile (p99), a setting (CAPACITY=1).
var notFigures = regexp.MustCompile(`\b(?:[ABCDS]\d+|p\d+|[A-Z_]+=\d+)\b`)

// loneFigures are the figures of c's tolerance line in language l that no
// value of c.Stated writes in l and that c does not cite.
func loneFigures(c result.Claim, l messages.Lang) []string {
	ok := figures(stackless(c.Article) + " " + c.Source.Quote)
	for _, s := range c.Stated {
		for f := range figures(s.In(l)) {
			ok[f] = true
		}
	}
	var lone []string
	line := notFigures.ReplaceAllString(stackless(c.LinesIn(l).Tolerance), "")
	for _, f := range figureRE.FindAllString(line, -1) {
		if !ok[f] && !ok[messages.SwapDecimalMarks(f)] && !slices.Contains(lone, f) {
			lone = append(lone, f)
		}
	}
	return lone
}

// The check is not empty for the claims themselves: stripped of its values,
// every claim stated from values writes a figure nothing else accounts for
// — so a hand-typed copy would be caught — unless its bound is the
// source's own figure, which the claim's text cites (listed here).
func TestEveryStatedClaimNeedsItsValues(t *testing.T) {
	sourcesOwn := map[string]bool{"A5": true, "A5-fastify": true} // ≥ 5: the article's "5-6 lần", its lower figure
	for _, c := range everyClaim(t) {
		if len(c.Stated) == 0 || sourcesOwn[c.ID] {
			continue
		}
		bare := c
		bare.Stated = nil
		if len(loneFigures(bare, messages.English)) == 0 {
			t.Errorf("%s: every figure of its tolerance is also in the claim's text, so a hand-typed one would pass: %q", c.ID, c.Tolerance)
		}
	}
}
