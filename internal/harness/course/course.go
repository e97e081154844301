// Package course is the workshop's manifest, as data: every fact about a
// step that more than one part of the tree needs — its slug, the services
// its server needs, whether it has an exercise, its drill, whether
// test-latency runs it, the counters its report draws, its row in the
// README's table, its deck's chart, its variants' names and its
// tolerances — lives in the step's one entry in steps.go. The benches
// (internal/harness/scenario), the docs generator, the report, the drills and the
// scaffolder (`make new-step`) read them from here, so adding a step
// means one entry here plus the step's own folders and its
// internal/harness/scenario/stepNN.go.
//
// The package imports nothing of the workshop but internal/given/messages, the
// words its tolerances print around their figures (tolerance.go) and List's
// "and", which every program reading the manifest links anyway: the lean
// learner CLI and the maintainer's tools both read it for free.
package course

import (
	"fmt"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
)

// The services a step's server may need (internal/harness/stack starts them; its
// names are these).
const (
	Postgres = "postgres"
	Redis    = "redis"
	Mongo    = "mongo"
)

// Variant names one row of a step's table: the Go driver's and the k6
// script's name for it, the key its results are found by.
type Variant string

// WrkTwin ends the name of a row wrk drove: empty-get-wrk is empty-get's
// twin (internal/harness/scenario adds one to a plain HTTP row where wrk is
// installed).
const WrkTwin = "-wrk"

// Wrk is v's twin row, the same load driven by wrk.
func (v Variant) Wrk() Variant { return v + WrkTwin }

// Join is vs as one line, for a note that names rows: "sync, bulk".
func Join(vs []Variant, sep string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return strings.Join(out, sep)
}

// Drill is a step's failure drill (`make step-N drill`), if any.
type Drill int

const (
	NoDrill    Drill = iota
	ReadDrill        // Redis stopped under load on the cached route
	WriteDrill       // MongoDB killed under load, then SIGTERM to the server
)

// Panel names a counter the report's series chart draws under a step's
// req/s and p99 (internal/harness/report maps each to its label and value).
type Panel string

const (
	CPUPanel       Panel = "cpu"
	DBPanel        Panel = "db"
	RedisPanel     Panel = "redis"
	PersistedPanel Panel = "persisted"
	QueuePanel     Panel = "queue"
	BodyPanel      Panel = "body"
)

// Row is what the README's step table says of a step besides the figures
// (the "ours" cell is computed from the reference run by the step's bench,
// internal/harness/scenario's Step.Ours, which the docs generator prints).
type Row struct {
	Adds    string // what the step adds
	Article string // the claims' ids: "A3", "B1–B8"
	Theirs  string // the source's figure
	Proof   string // what the step's check proves
	// Vi is the same row in Vietnamese, written beside the English so the
	// two cannot drift apart (issue 34 §2): the Vietnamese README's table
	// reads it. Its figures are the English cells', in the same order
	// (TestEachRowSaysTheSameFiguresInBothLanguages).
	Vi RowWords
}

// RowWords is a Row's cells in another language.
type RowWords struct{ Adds, Article, Theirs, Proof string }

// In is the row's cells as language l reads them: the English ones unless
// l is Vietnamese.
func (r Row) In(l messages.Lang) RowWords {
	if l == messages.Vietnamese {
		return r.Vi
	}
	return RowWords{r.Adds, r.Article, r.Theirs, r.Proof}
}

// Slide is the chart a step's deck shows (internal/harness/report draws it): one
// message, two or three of the step's runs, one figure per run, and the
// source's figure as a mark where the source gives one. The report keeps
// the full charts; a slide is read from the back of a room, so it shows
// only what its message needs.
type Slide struct {
	Message  string    // the one thing the chart says, without a figure (figures come from the run)
	Label    string    // what the bars measure
	Variants []Variant // the runs shown, top to bottom (2–3)
	Figure   Figure
	Mark     *Mark
}

// Figure names what a slide's bars read from each run: ReqPerSec,
// DBQueries or RedisBytes, or else the key of the run's step-specific
// figure of that name ("persisted_per_s", the value of a result.Key: this
// package is below internal/harness/result, so internal/harness/report's
// TestSlideFiguresAreRecorded holds the name to the reference runs).
type Figure string

const (
	ReqPerSec  Figure = "req/s"
	DBQueries  Figure = "db_queries_per_request"
	RedisBytes Figure = "redis_bytes_per_request"
)

// Mark is the source's figure on a slide: its ratio (Times ÷ Per) applied
// to the first run's value, drawn on the row it predicts.
type Mark struct {
	Row        int // the run (index into Variants) the source's ratio predicts
	Source     string
	Quote      string // the source's figure as it words it
	Times, Per float64
}

// Of is where the source's ratio puts the mark's row, from the first run's value.
func (m Mark) Of(first float64) float64 { return first * m.Times / m.Per }

// Band is a tolerance between two bounds, inclusive: it prints itself, so
// the figure a verdict is judged by and the sentence that states it are the
// same number.
type Band struct {
	Lo, Hi float64
	Places int // decimals written; 0: as few as each bound needs
}

// Holds says whether x lies in the band.
func (b Band) Holds(x float64) bool { return x >= b.Lo && x <= b.Hi }

// Step is one step's entry in the manifest.
type Step struct {
	N        int
	Slug     string
	Services []string // stack services the step's server needs
	// ServiceTests are the top-level tests of the step's check that need
	// a service (PostgreSQL, Redis, MongoDB, or the step's server with
	// them): `make step-N check` runs every other test first, under
	// -short with nothing started, then these with the services. This
	// list, not what a test says when it skips, decides the second pass,
	// and internal/harness/stacktest fails a step's test that reaches a service
	// without being listed here, so a test cannot fall between the passes.
	ServiceTests []string
	// Exercise: steps/NN-slug/exercise.go holds a TODO for the learner,
	// with hints, a reference in solutions/, mutants and the must-fail gate.
	Exercise bool
	// ExerciseMinutes is how long a mid-level Go developer takes to write
	// the exercise from the lesson and its hints, a first failed check
	// included — our estimate (one blind run-through, issue 32), not a
	// measurement: the facilitator guide plans the day with it and says so.
	ExerciseMinutes int
	Worker          bool // run the live-stats worker while the server runs
	// WideServer gives the server every CPU but the driver's instead of
	// one (bench.CPUPlan.Wide): step 8's lesson needs cores to spread on.
	WideServer bool
	Drill      Drill
	// TestLatency: `test-latency` runs the step natively and with a delay
	// per database round trip and wants the same verdicts.
	TestLatency bool
	// Panels are the counters the step's series chart draws: the one its
	// lesson is about, else the server's CPU.
	Panels []Panel
	Row    Row
	// K6 lists the variants the k6 script runs, in its order (the Go
	// driver's table may add rows k6 cannot run: wrk twins, raw baselines).
	K6 []Variant
	// Slide is the chart the step's deck shows.
	Slide Slide
	// Unrecorded marks a step with no reference run yet (make new-step sets
	// it): results/reference/step-N.json is recorded once the step is
	// written (make step-N bench SOLUTION=1), and the entry loses the mark.
	// Until then the docs' row and the bench say so, and the tests that
	// read reference runs pass it by.
	Unrecorded bool
}

// Needs says whether the step's test named test (a top-level name, or a
// subtest's "Parent/sub") is one of its ServiceTests.
func (s Step) Needs(test string) bool {
	top, _, _ := strings.Cut(test, "/")
	return slices.Contains(s.ServiceTests, top)
}

// ServiceTestsPattern is a -run (or -skip) pattern matching exactly the
// step's ServiceTests: the second pass of its check runs them, the first
// skips them.
func (s Step) ServiceTestsPattern() string { return "^(" + strings.Join(s.ServiceTests, "|") + ")$" }

// Dir is the step's directory under steps/.
func (s Step) Dir() string { return fmt.Sprintf("steps/%02d-%s", s.N, s.Slug) }

// SolutionDir is the reference's package under solutions/ (steps 1+).
func (s Step) SolutionDir() string { return fmt.Sprintf("solutions/%02d-%s", s.N, s.Slug) }

// K6Script is the step's k6 script.
func (s Step) K6Script() string { return fmt.Sprintf("k6/%02d-%s.js", s.N, s.Slug) }

// Deck is the step's slide deck.
func (s Step) Deck() string { return fmt.Sprintf("slides/%02d-%s.slide", s.N, s.Slug) }

// Link is the step's cell in the README's table: [3 etag](steps/03-etag/README.md).
func (s Step) Link() string { return fmt.Sprintf("[%d %s](%s/README.md)", s.N, s.Slug, s.Dir()) }

// All returns every declared step, in order.
func All() []Step { return slices.Clone(steps) }

// Get returns step n's entry.
func Get(n int) (Step, bool) {
	for _, s := range steps {
		if s.N == n {
			return s, true
		}
	}
	return Step{}, false
}

// Where returns the numbers of the steps for which keep is true: the
// steps that drill, the steps test-latency runs.
func Where(keep func(Step) bool) []int {
	var ns []int
	for _, s := range steps {
		if keep(s) {
			ns = append(ns, s.N)
		}
	}
	return ns
}

// List writes step numbers as a sentence does: "2, 6 and 7".
func List(ns []int) string {
	var parts []string
	for _, n := range ns {
		parts = append(parts, fmt.Sprint(n))
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + messages.T("words.and") + parts[len(parts)-1]
}
