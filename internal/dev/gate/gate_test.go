package gate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// The gate reads a check's output as a learner would, and judges it.
func TestGateJudgesWhatTheLearnerReads(t *testing.T) {
	exit1 := errors.New("exit status 1")
	const failed = "--- FAIL: TestNotModified (0.00s)\n    check_test.go:31: NotModified(x) = false, want true\nFAIL\n"
	for _, tc := range []struct {
		name, kind, out string
		err             error
		want            string // "" when the gate is satisfied; else a word of its complaint
	}{
		{"mutant fails with a message", "mutant", failed, exit1, ""},
		{"mutant passes", "mutant", "PASS\n", nil, "PASSES"},
		{"mutant panics", "mutant", "--- FAIL: TestX (0.00s)\npanic: runtime error: index out of range [-1]\n", exit1, "panicked"},
		{"mutant times out", "mutant", "panic: test timed out after 1m30s\n", exit1, "timed out"},
		{"mutant crashes the binary", "mutant", "=== RUN   TestX\nfatal error: concurrent map read and map write\n\ngoroutine 61 [running]:\n", errors.New("exit status 2"), "crashed (fatal error: concurrent map read and map write)"},
		{"mutant fails to set up", "mutant", "FAIL\tgithub.com/x [setup failed]\n", exit1, "without a `--- FAIL` line"},
		{"valid passes", "valid", "PASS\n", nil, ""},
		{"valid rejected", "valid", failed, exit1, "a right answer is rejected: TestNotModified: check_test.go:31"},
		{"reference rejected", "reference", failed, exit1, "a right answer is rejected: TestNotModified"},
		{"untouched exercise fails", "untouched", failed, exit1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := judge(&variant{kind: tc.kind}, readOutcome(tc.out, tc.err))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("gate complains: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("gate says %v, want a complaint with %q", err, tc.want)
			}
		})
	}
	t.Run("the first failing subtest", func(t *testing.T) {
		const out = "--- FAIL: TestContract (0.10s)\n    --- FAIL: TestContract/yours (0.00s)\n        check_test.go:50: GET /empty: 404, want 200\n"
		if got := readOutcome(out, exit1).firstFail; got != "TestContract/yours: check_test.go:50: GET /empty: 404, want 200" {
			t.Errorf("firstFail = %q", got)
		}
	})
	t.Run("a message on the line after file:line", func(t *testing.T) {
		const out = "--- FAIL: TestX (0.10s)\n    check_test.go:162: \n        a failed load reached no waiter\n        more\n"
		if got := readOutcome(out, exit1).firstFail; got != "TestX: check_test.go:162: a failed load reached no waiter" {
			t.Errorf("firstFail = %q", got)
		}
	})
	t.Run("first failing test with its first line", func(t *testing.T) {
		if got := readOutcome(failed, exit1).firstFail; got != "TestNotModified: check_test.go:31: NotModified(x) = false, want true" {
			t.Errorf("firstFail = %q", got)
		}
	})
}

// Each variant runs as `make step-N check` runs it: the -short pass, then
// the service pass only when -short passed; the gate judges the pass that
// decided, and says which one it was.
func TestGateServicePassOnlyAfterShortPasses(t *testing.T) {
	exit1 := errors.New("exit status 1")
	const failed = "--- FAIL: TestX (0.00s)\n    check_test.go:9: 2 loads, want 1\nFAIL\n"
	pass := readOutcome("PASS\n", nil)
	for _, tc := range []struct {
		name, kind  string
		err         error // compile error
		short, full outcome
		wantFull    bool   // the service pass is needed
		wantOK      bool   // the gate is satisfied
		wantLine    string // a word of the printed line
	}{
		{"mutant caught without services", "mutant", nil, readOutcome(failed, exit1), outcome{}, false, true, "-short: TestX: check_test.go:9: 2 loads, want 1"},
		{"mutant that panics under -short", "mutant", nil, readOutcome("panic: boom\n", exit1), outcome{}, false, false, "-short: the check panicked"},
		{"mutant that hangs under -short", "mutant", nil, readOutcome("panic: test timed out after 1m30s\n", exit1), outcome{}, false, false, "-short: the check timed out"},
		{"mutant only the services catch", "mutant", nil, pass, readOutcome(failed, exit1), true, true, "with services: TestX"},
		{"mutant nothing catches", "mutant", nil, pass, pass, true, false, "with services: the check PASSES"},
		{"mutant that crashes with services", "mutant", nil, pass, readOutcome("fatal error: concurrent map writes\n", errors.New("exit status 2")), true, false, "with services: the test binary crashed"},
		{"valid passes both", "valid", nil, pass, pass, true, true, "passes -short and with services"},
		{"valid rejected under -short", "valid", nil, readOutcome(failed, exit1), outcome{}, false, false, "-short: a right answer is rejected: TestX"},
		{"valid rejected with services", "valid", nil, pass, readOutcome(failed, exit1), true, false, "with services: a right answer is rejected: TestX"},
		{"untouched exercise fails", "untouched", nil, readOutcome(failed, exit1), outcome{}, false, true, "-short: TestX"},
		{"does not compile", "mutant", errors.New("does not compile: x.go:1: syntax error"), outcome{}, outcome{}, false, false, "does not compile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &variant{step: withServices, kind: tc.kind, name: "x", err: tc.err, short: tc.short}
			if got := needsServicePass(v); got != tc.wantFull {
				t.Fatalf("needsServicePass = %v, want %v", got, tc.wantFull)
			}
			if tc.wantFull {
				v.full, v.ranFull = tc.full, true
			}
			line, ok := gateLine(v)
			if ok != tc.wantOK || !strings.Contains(line, tc.wantLine) {
				t.Errorf("gateLine = %q, %v; want %v and a line with %q", line, ok, tc.wantOK, tc.wantLine)
			}
			if want := tc.wantFull; strings.Contains(line, ", services ") != want {
				t.Errorf("line %q: the service pass's time shown = %v, want %v", line, !want, want)
			}
		})
	}
}

// withServices is a step two of whose tests need the services.
var withServices = scenario.Manifest{Step: course.Step{N: 2, ServiceTests: []string{"TestA", "TestB"}}}

// The -short pass skips exactly the step's ServiceTests, the service pass
// runs exactly those; a wrong answer stops at its first failure in either
// pass, a right one runs every test.
func TestGateRunArgs(t *testing.T) {
	for _, tc := range []struct {
		kind  string
		short bool
		want  string
	}{
		{"mutant", true, "-test.count=1 -test.timeout=1m30s -test.short -test.skip=^(TestA|TestB)$ -test.failfast"},
		{"mutant", false, "-test.count=1 -test.timeout=1m30s -test.run=^(TestA|TestB)$ -test.failfast"},
		{"untouched", true, "-test.count=1 -test.timeout=1m30s -test.short -test.skip=^(TestA|TestB)$ -test.failfast"},
		{"valid", true, "-test.count=1 -test.timeout=1m30s -test.short -test.skip=^(TestA|TestB)$"},
		{"valid", false, "-test.count=1 -test.timeout=1m30s -test.run=^(TestA|TestB)$"},
		{"reference", false, "-test.count=1 -test.timeout=1m30s -test.run=^(TestA|TestB)$"},
	} {
		if got := strings.Join(runArgs(&variant{step: withServices, kind: tc.kind}, tc.short), " "); got != tc.want {
			t.Errorf("%s, short=%v: %q, want %q", tc.kind, tc.short, got, tc.want)
		}
	}
	if got := strings.Join(runArgs(&variant{kind: "valid"}, true), " "); got != "-test.count=1 -test.timeout=1m30s -test.short" {
		t.Errorf("a step without service tests: %q", got)
	}
}

// The pipeline: every variant gets a verdict; the service pass runs one at
// a time (the checks share the databases), only after its variant's -short
// pass passed and once released (make test's other service tests are
// done); a variant that does not compile runs nothing. Every right answer
// that passed, and every reference, runs both passes again beside the
// busy loops, only once every other pass is over.
func TestGatePipeline(t *testing.T) {
	exit1 := errors.New("exit status 1")
	var vs []*variant
	for i := range 40 {
		vs = append(vs, &variant{step: withServices, kind: []string{"mutant", "valid", "untouched", "mutant", "reference"}[i%5], name: fmt.Sprint(i)})
	}
	var mu sync.Mutex
	inService, maxInService, shortRuns := 0, 0, map[*variant]bool{}
	hogging, quietAfterHogs, busyRuns := false, 0, map[*variant]int{}
	hold := make(chan struct{})
	services := 0
	prove(vs, 3, hold, stages{
		compile: func(v *variant, i int) {
			if i%10 == 9 {
				v.err = errors.New("does not compile")
			}
		},
		hog: func() func() {
			mu.Lock()
			hogging = true
			mu.Unlock()
			return func() { mu.Lock(); hogging = false; mu.Unlock() }
		},
		run: func(v *variant, short bool) outcome {
			mu.Lock()
			if hogging {
				busyRuns[v]++
				mu.Unlock()
				return readOutcome("PASS\n", nil)
			}
			if len(busyRuns) > 0 {
				quietAfterHogs++
			}
			if v.kind == "reference" {
				t.Errorf("variant %s: the reference ran on the quiet machine", v.name)
			}
			if short {
				shortRuns[v] = true
			} else {
				if !shortRuns[v] {
					t.Errorf("variant %s: service pass before its -short pass", v.name)
				}
				inService++
				services++
				maxInService = max(maxInService, inService)
			}
			mu.Unlock()
			runtime.Gosched()
			defer func() { mu.Lock(); inService -= map[bool]int{true: 0, false: 1}[short]; mu.Unlock() }()
			if short && v.kind != "valid" && v.name[len(v.name)-1]%2 == 0 { // half the wrong ones caught without services
				return readOutcome("--- FAIL: TestX (0.00s)\n    x_test.go:1: wrong\n", exit1)
			}
			if !short && !v.wantPass() {
				return readOutcome("--- FAIL: TestY (0.00s)\n    x_test.go:2: wrong with services\n", exit1)
			}
			return readOutcome("PASS\n", nil)
		},
	})
	// The verdicts -short decides come in while the service passes are held.
	for i, v := range vs {
		if i%10 == 9 || !v.wantPass() && v.name[len(v.name)-1]%2 == 0 {
			<-v.done
		}
	}
	mu.Lock()
	if services != 0 {
		t.Errorf("%d service passes ran while held", services)
	}
	mu.Unlock()
	close(hold)
	for _, v := range vs {
		<-v.done
		_, ran := shortRuns[v]
		switch {
		case v.err != nil && (ran || v.ranFull):
			t.Errorf("variant %s does not compile, yet ran", v.name)
		case v.err == nil && v.ranFull != v.short.passed:
			t.Errorf("variant %s: -short passed %v, service pass ran %v", v.name, v.short.passed, v.ranFull)
		}
	}
	if maxInService != 1 {
		t.Errorf("%d service passes at once, want 1", maxInService)
	}
	for _, v := range vs {
		want := 0
		if v.err == nil && v.wantPass() {
			want = 2 // both passes
		}
		if busyRuns[v] != want || v.ranBusy != (want > 0) {
			t.Errorf("variant %s (%s): %d passes beside the busy loops, want %d", v.name, v.kind, busyRuns[v], want)
		}
	}
	if quietAfterHogs > 0 {
		t.Errorf("%d quiet passes ran after the busy loops began", quietAfterHogs)
	}
}

// Every mutant and valid file opens with its own name, then what it is
// (describe): the gate lists each by its description, so one copied from
// another file would name the wrong answer.
func TestVariantFilesNameThemselves(t *testing.T) {
	dir := t.TempDir()
	for file, first := range map[string]string{"quarters.go": "// quarters: rounds to a quarter", "nanotokens.go": "// quarters: rounds to a quarter", "bare.go": "// bare:", "none.go": "package main"} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(first+"\n\n//go:build !solution\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if d, err := describe(filepath.Join(dir, "quarters.go"), "quarters"); err != nil || d != "rounds to a quarter" {
		t.Errorf("quarters.go: %q, %v; want its description", d, err)
	}
	for _, name := range []string{"nanotokens", "bare", "none"} {
		if _, err := describe(filepath.Join(dir, name+".go"), name); err == nil {
			t.Errorf("%s.go: no error, want one naming `// %s: …`", name, name)
		}
	}
	t.Chdir(filepath.Join("..", "..", "..")) // the gate globs from the repository's root
	files := 0
	for _, s := range scenario.Steps() {
		vs, err := gateVariants(s)
		if err != nil {
			t.Errorf("step %d: %v", s.N, err)
		}
		files += len(vs) - 2 // the untouched exercise and the reference are not files
	}
	if files == 0 {
		t.Error("no mutant or valid file found under steps/*/testdata: the check above read nothing")
	}
}

// TestMutantsStartOnlyTheDeclaredServices: make step-N mutants starts the
// services the step's entry declares and nothing else: none for a step
// that needs none (step 8), MongoDB alone for the write path, and the
// union, in the stack's order, for the gate of every step.
func TestMutantsStartOnlyTheDeclaredServices(t *testing.T) {
	byN := map[int]scenario.Manifest{}
	for _, m := range scenario.Steps() {
		byN[m.N] = m
	}
	for _, tc := range []struct {
		name  string
		steps []scenario.Manifest
		want  []string
	}{
		{"step 8", []scenario.Manifest{byN[8]}, nil},
		{"step 6", []scenario.Manifest{byN[6]}, byN[6].Services},
		{"steps 6 and 2", []scenario.Manifest{byN[6], byN[2]}, []string{course.Postgres, course.Redis, course.Mongo}},
		{"step 1, no exercise", []scenario.Manifest{byN[1]}, nil},
	} {
		if got := gateServices(tc.steps); !slices.Equal(got, tc.want) {
			t.Errorf("%s: the gate starts %v, want %v (the entries' Services)", tc.name, got, tc.want)
		}
	}
	var all []string
	for _, m := range scenario.Steps() {
		if m.Exercise {
			all = append(all, m.Services...)
		}
	}
	for _, s := range all {
		if !slices.Contains(gateServices(scenario.Steps()), s) {
			t.Errorf("make mutants does not start %s, which an exercise's step declares", s)
		}
	}
}
