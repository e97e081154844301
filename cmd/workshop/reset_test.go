package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
)

// make step-9 reset puts back what the exercise's `go get` changed (go.mod,
// go.sum) as well as exercise.go, each as committed, the learner's version
// kept; a step whose exercise adds no module leaves go.mod alone.
func TestResetRestoresWhatGoGetChanged(t *testing.T) {
	nine, err := scenario.Get(9)
	if err != nil {
		t.Fatal(err)
	}
	other := stepWithExerciseBut(t, 9)
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(path string) string {
		b, _ := os.ReadFile(path)
		return string(b)
	}
	repo := t.TempDir()
	t.Chdir(repo)
	cfg := config.Config{Stack: stack.Config{Dir: filepath.Join(repo, ".workshop")}} // as PEAKLOAD_DIR would set it
	committed := map[string]string{
		"go.mod":                                 "module example\n",
		"go.sum":                                 "",
		filepath.Join(nine.Dir(), "exercise.go"): "package main // TODO\n",
		filepath.Join(nine.Dir(), "frameworks.txt"): "github.com/gorilla/mux@v1.8.1\n",
		filepath.Join(other.Dir(), "exercise.go"):   "package main // TODO\n",
	}
	for path, content := range committed {
		write(path, content)
	}
	git("init", "-q")
	git("add", ".")
	git("-c", "user.name=l", "-c", "user.email=l@example.invalid", "commit", "-qm", "shipped")

	// What go get and the learner wrote.
	write("go.mod", "module example\n\nrequire github.com/gorilla/mux v1.8.1\n")
	write("go.sum", "github.com/gorilla/mux v1.8.1 h1:x\n")
	write(filepath.Join(nine.Dir(), "exercise.go"), "package main // mux\n")
	write(filepath.Join(other.Dir(), "exercise.go"), "package main // mine\n")

	if err := runReset(t.Context(), cfg, []string{"-step", strconv.Itoa(other.N)}); err != nil {
		t.Fatal(err)
	}
	if got := read("go.mod"); got == committed["go.mod"] {
		t.Errorf("make step-%d reset restored go.mod: only step 9's exercise go-gets", other.N)
	}
	if err := runReset(t.Context(), cfg, []string{"-step", "9"}); err != nil {
		t.Fatal(err)
	}
	for path, content := range committed {
		if got := read(path); got != content {
			t.Errorf("after the resets %s is %q, want %q as committed", path, got, content)
		}
	}
	kept, _ := filepath.Glob(filepath.Join(repo, ".workshop", "backup", "*"))
	if len(kept) != 4 { // both exercises, go.mod, go.sum
		t.Errorf("kept %d backups, want 4: %v", len(kept), kept)
	}
	// Reset again: nothing to restore, nothing kept twice.
	if err := runReset(t.Context(), cfg, []string{"-step", "9"}); err != nil {
		t.Fatal(err)
	}
	if again, _ := filepath.Glob(filepath.Join(repo, ".workshop", "backup", "*")); len(again) != len(kept) {
		t.Errorf("a second reset kept more backups: %v", again)
	}
}

// stepWithExerciseBut is a step with an exercise other than n.
func stepWithExerciseBut(t *testing.T, n int) scenario.Manifest {
	for _, m := range scenario.Steps() {
		if m.Exercise && m.N != n {
			return m
		}
	}
	t.Fatal("no other step has an exercise")
	return scenario.Manifest{}
}
