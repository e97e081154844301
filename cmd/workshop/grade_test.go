package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
)

// TestGradeChecksTheChangedStep runs the workflow's script on a clone of
// this repository where a learner touched step 3's exercise.go without
// solving it: grade checks step 3 alone (its service-free tests fail
// first, so no database is started), fails, and still writes the job
// summary and the progress JSON.
func TestGradeChecksTheChangedStep(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and runs a step's check: not under -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "fork")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=learner", "GIT_AUTHOR_EMAIL=l@example.invalid", "GIT_COMMITTER_NAME=learner", "GIT_COMMITTER_EMAIL=l@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(root, "clone", "-q", root, clone)
	ex := filepath.Join(clone, "steps", "03-etag", "exercise.go")
	b, err := os.ReadFile(ex)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ex, append(b, []byte("\n// started on it\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	git(clone, "commit", "-qam", "step 3: started")
	t.Chdir(clone)
	useResults(t, filepath.Join(clone, "results"))

	summary, jsonOut := filepath.Join(t.TempDir(), "summary.md"), filepath.Join(t.TempDir(), "progress.json")
	cfg, err := config.FromEnv() // the stack's ports, as main reads them
	if err != nil {
		t.Fatal(err)
	}
	err = runGrade(t.Context(), cfg, []string{"-base", "HEAD~1", "-summary", summary, "-json", jsonOut})
	if err == nil || !strings.Contains(err.Error(), "step 3") {
		t.Fatalf("grade on an unsolved step 3: %v, want the check of step 3 failed", err)
	}
	md, _ := os.ReadFile(summary)
	for _, want := range []string{"step 3 check **failed**", "| 3 etag | to do |", "exercise.go changed since HEAD~1 in 1 step(s)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the job summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "step 2 check") {
		t.Errorf("a step whose exercise.go did not change was checked:\n%s", md)
	}
	var p Progress
	b, _ = os.ReadFile(jsonOut)
	if err := json.Unmarshal(b, &p); err != nil || len(p.Steps) < 11 || p.Commit == "" {
		t.Errorf("progress JSON: %v, %d steps, commit %q:\n%s", err, len(p.Steps), p.Commit, b)
	}
}

func TestGradeStepsAsked(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	all, _, err := gradeSteps("", "all")
	if err != nil || len(all) == 0 || all[0] != 2 {
		t.Errorf("all: %v %v, want the exercise steps from 2", all, err)
	}
	if got, _, err := gradeSteps("", "3, 4"); err != nil || len(got) != 2 {
		t.Errorf("3, 4: %v %v", got, err)
	}
	for _, bad := range []string{"0", "x", "99"} {
		if _, _, err := gradeSteps("", bad); err == nil {
			t.Errorf("-steps %s accepted: step 0 has no exercise, the others do not exist", bad)
		}
	}
}

// TestGradeSummaryInVietnamese: the job summary's checks follow
// PEAKLOAD_LANG (the progress table under them is TestProgressInVietnamese's);
// English stays the default.
func TestGradeSummaryInVietnamese(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	summary := func(l messages.Lang) string {
		defer messages.Use(l)()
		_, why, err := gradeSteps("", "all")
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "summary.md")
		lines := []string{gradeLine(2, nil), gradeLine(3, errors.New("step 3 check failed: the first failure is above"))}
		if err := writeGrade(out, why, lines, Progress{Who: "an", Commit: "0123456789abcdef"}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	vi := summary(messages.Vietnamese)
	for _, want := range []string{"### Các check đã chạy (mọi bước có bài tập, theo yêu cầu)", "- check bước 2 đã pass", "- check bước 3 **không pass**: ", "### Tiến độ workshop"} {
		if !strings.Contains(vi, want) {
			t.Errorf("the Vietnamese job summary lacks %q:\n%s", want, vi)
		}
	}
	for _, gone := range []string{"Checks run", "as asked", "check passed", "**failed**"} {
		if strings.Contains(vi, gone) {
			t.Errorf("the Vietnamese job summary still says %q:\n%s", gone, vi)
		}
	}
	en := summary(messages.English)
	for _, want := range []string{"### Checks run (every exercise step, as asked)\n\n- step 2 check passed\n- step 3 check **failed**: ", "### Workshop progress"} {
		if !strings.Contains(en, want) {
			t.Errorf("the English job summary lacks %q:\n%s", want, en)
		}
	}
}

// TestProgressWorkflow reads the fork's workflow as GitHub Actions would:
// on push, the whole history fetched (grade diffs against the push's
// before), the services installed, `make grade` run with that before, and
// the progress JSON kept whatever the checks said.
func TestProgressWorkflow(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", "progress.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On   map[string]any `yaml:"on"`
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				If   string            `yaml:"if"`
				With map[string]any    `yaml:"with"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("progress.yml is not YAML: %v", err)
	}
	if _, ok := wf.On["push"]; !ok {
		t.Error("the workflow does not run on push")
	}
	var grade, lang, depth, services, artifact bool
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			switch {
			case s.Run == "make grade":
				grade = s.Env["GRADE_BASE"] == "${{ github.event.before }}"
				lang = s.Env["PEAKLOAD_LANG"] == "${{ vars.PEAKLOAD_LANG }}"
			case strings.HasPrefix(s.Uses, "actions/checkout@"):
				depth = s.With["fetch-depth"] == 0
			case strings.Contains(s.Run, "apt-get install") && strings.Contains(s.Run, "postgresql") && strings.Contains(s.Run, "redis-server"):
				services = true
			case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
				artifact = s.If == "always()" && s.With["path"] == "results/progress.json"
			}
		}
	}
	if !grade || !depth || !services || !artifact {
		t.Errorf("make grade with the push's before: %v; full history: %v; PostgreSQL and Redis installed: %v; progress.json kept always: %v", grade, depth, services, artifact)
	}
	if !lang {
		t.Error("make grade does not pass the repository variable PEAKLOAD_LANG on: the job summary cannot follow the fork's language")
	}
	mk, _ := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if !strings.Contains(string(mk), "\ngrade: build ##") || !strings.Contains(string(mk), "GRADE_BASE") {
		t.Error("the Makefile has no grade target exporting GRADE_BASE")
	}
}
