package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/stepflag"
)

// runReset is `make step-N reset`: exercise.go as the repository has it
// (git's HEAD), the learner's version kept in .workshop/backup/ first —
// nothing is ever discarded, so it need not ask. A step whose exercise
// go-gets a module (step 9: frameworks.txt) also gets go.mod and go.sum
// back as committed: `go get` wrote them, not the learner.
func runReset(_ context.Context, cfg config.Config, args []string) error {
	step, err := stepflag.Parse("reset", args)
	if err != nil {
		return err
	}
	if !step.Exercise {
		fmt.Print(messages.T("reset.no_exercise", step.N))
		return nil
	}
	stamp := time.Now().Format("20060102-150405")
	path := filepath.Join(step.Dir(), "exercise.go")
	changed, err := restore(cfg.Stack.Dir, path, fmt.Sprintf("step-%d-exercise-%s.go", step.N, stamp))
	if err != nil {
		return err
	}
	if changed {
		fmt.Print(messages.T("reset.back", path, step.N))
	} else {
		fmt.Print(messages.T("reset.untouched", path))
	}
	if _, err := os.Stat(filepath.Join(step.Dir(), "frameworks.txt")); err != nil {
		return nil // the step's exercise adds no module
	}
	var back []string
	for _, f := range []string{"go.mod", "go.sum"} {
		changed, err := restore(cfg.Stack.Dir, f, fmt.Sprintf("step-%d-%s-%s", step.N, f, stamp))
		if err != nil {
			return err
		}
		if changed {
			back = append(back, f)
		}
	}
	if len(back) > 0 {
		fmt.Print(messages.T("reset.modules_back", strings.Join(back, messages.T("words.and"))))
	}
	return nil
}

// restore puts path back as git's HEAD has it, the current content kept
// in <dir>/backup/<backup> first (dir: the workshop directory, cfg.Stack.Dir);
// false when it already was.
func restore(dir, path, backup string) (bool, error) {
	untouched, err := exec.Command("git", "show", "HEAD:"+filepath.ToSlash(path)).Output()
	if err != nil {
		return false, fmt.Errorf("reading the committed %s from git: %w", path, err)
	}
	mine, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return false, err
	}
	if bytes.Equal(mine, untouched) {
		return false, nil
	}
	if len(mine) > 0 {
		kept := filepath.Join(dir, "backup", backup)
		if err := os.MkdirAll(filepath.Dir(kept), 0o755); err != nil {
			return false, err
		}
		if err := os.WriteFile(kept, mine, 0o644); err != nil {
			return false, fmt.Errorf("keeping your %s: %w", path, err)
		}
		fmt.Print(messages.T("reset.kept", path, kept))
	}
	if err := os.WriteFile(path, untouched, 0o644); err != nil {
		return false, fmt.Errorf("restoring %s: %w", path, err)
	}
	return true, nil
}
