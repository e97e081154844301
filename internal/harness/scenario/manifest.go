package scenario

import (
	"fmt"
	"strings"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// Manifest is what a step declares about itself: its entry in
// internal/harness/course (the one place), seen from the bench. Everything else —
// steps/NN-slug/, solutions/NN-slug/, k6/NN-slug.js, hints.txt, the
// README's row, results/reference/step-N.json — must agree with it, and
// TestManifestMatchesTheTree says where it does not.
type Manifest struct {
	course.Step
}

// Plan is how the step's bench splits this machine's CPUs (noPin:
// PEAKLOAD_NO_PIN, no split).
func (m Manifest) Plan(noPin bool) result.CPUPlan {
	if m.WideServer {
		return proc.PlanCPUs(noPin).Wide()
	}
	return proc.PlanCPUs(noPin)
}

// manifest is every declared step, in order.
func manifest() []Manifest {
	var out []Manifest
	for _, s := range course.All() {
		out = append(out, Manifest{s})
	}
	return out
}

func declared(n int) Manifest {
	s, ok := course.Get(n)
	if !ok {
		panic(fmt.Sprintf("scenario: step %d has a bench but is not in the manifest (internal/harness/course/steps.go)", n))
	}
	return Manifest{s}
}

// Hints parses a step's hints.txt: one hint per non-empty line, lines
// starting with # are comments. `make step-N hint` shows them in order.
func Hints(text string) []string {
	var hints []string
	for l := range strings.Lines(text) {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			hints = append(hints, l)
		}
	}
	return hints
}
