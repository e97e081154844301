package scenario

import (
	"fmt"
	"strings"

	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/stack"
)

// Manifest is what a step declares about itself, in one place (the table
// below): everything else — steps/NN-slug/, solutions/NN-slug/,
// k6/NN-slug.js, hints.txt, the README's row, results/reference/step-N.json —
// must agree with it, and TestManifestMatchesTheTree says where it does not.
type Manifest struct {
	N        int
	Slug     string
	Services []string // stack services the step's server needs
	// Exercise: steps/NN-slug/exercise.go holds a TODO for the learner,
	// with hints, a reference in solutions/, mutants and the must-fail gate.
	Exercise bool
	Worker   bool // run the live-stats worker while the server runs
	// WideServer gives the server every CPU but the driver's instead of
	// one (bench.CPUPlan.Wide): step 8's lesson needs cores to spread on.
	WideServer bool
}

var (
	readPath  = []string{stack.Postgres, stack.Redis}
	writePath = []string{stack.Mongo}
)

// manifest declares every step, in order. To add one, see CONTRIBUTING.md.
var manifest = []Manifest{
	{N: 0, Slug: "ceilings"},
	{N: 1, Slug: "direct-db", Services: []string{stack.Postgres}, Worker: true},
	{N: 2, Slug: "cache-aside", Services: readPath, Worker: true, Exercise: true},
	{N: 3, Slug: "etag", Services: readPath, Worker: true, Exercise: true},
	{N: 4, Slug: "singleflight", Services: readPath, Worker: true, Exercise: true},
	{N: 5, Slug: "burst-cache", Services: readPath, Worker: true, Exercise: true},
	{N: 6, Slug: "buffered-writes", Services: writePath, Exercise: true},
	{N: 7, Slug: "counters", Services: writePath, Exercise: true},
	{N: 8, Slug: "profiling", WideServer: true, Exercise: true},
	{N: 9, Slug: "frameworks", Services: []string{stack.Postgres}, Exercise: true},
	{N: 10, Slug: "scale-out", Services: readPath, Exercise: true},
}

// Dir is the step's directory under steps/.
func (m Manifest) Dir() string { return fmt.Sprintf("steps/%02d-%s", m.N, m.Slug) }

// SolutionDir is the reference's package under solutions/ (steps 1+).
func (m Manifest) SolutionDir() string { return fmt.Sprintf("solutions/%02d-%s", m.N, m.Slug) }

// K6Script is the step's k6 script.
func (m Manifest) K6Script() string { return fmt.Sprintf("k6/%02d-%s.js", m.N, m.Slug) }

// Plan is how the step's bench splits this machine's CPUs.
func (m Manifest) Plan() bench.CPUPlan {
	if m.WideServer {
		return bench.PlanCPUs().Wide()
	}
	return bench.PlanCPUs()
}

func declared(n int) Manifest {
	for _, m := range manifest {
		if m.N == n {
			return m
		}
	}
	panic(fmt.Sprintf("scenario: step %d has a bench but is not in the manifest (internal/scenario/manifest.go)", n))
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
