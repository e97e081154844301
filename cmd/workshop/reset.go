package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/peakload/workshop/internal/cli"
)

// runReset is `make step-N reset`: exercise.go as the repository has it
// (git's HEAD), the learner's version kept in .workshop/backup/ first —
// nothing is ever discarded, so it need not ask.
func runReset(_ context.Context, cfg cli.Config, args []string) error {
	step, err := cli.StepFlag("reset", args)
	if err != nil {
		return err
	}
	if !step.Exercise {
		fmt.Printf("step %d has no exercise to reset\n", step.N)
		return nil
	}
	path := filepath.Join(step.Dir(), "exercise.go")
	untouched, err := exec.Command("git", "show", "HEAD:"+filepath.ToSlash(path)).Output()
	if err != nil {
		return fmt.Errorf("reading the untouched %s from git: %w", path, err)
	}
	mine, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if bytes.Equal(mine, untouched) {
		fmt.Printf("%s is already untouched\n", path)
		return nil
	}
	if len(mine) > 0 {
		backup := filepath.Join(cfg.Stack.Dir, "backup", fmt.Sprintf("step-%d-exercise-%s.go", step.N, time.Now().Format("20060102-150405")))
		if err := os.MkdirAll(filepath.Dir(backup), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(backup, mine, 0o644); err != nil {
			return fmt.Errorf("keeping your version: %w", err)
		}
		fmt.Printf("your version is kept in %s\n", backup)
	}
	if err := os.WriteFile(path, untouched, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s is back as shipped (its TODO); `make step-%d check` fails until you solve it again\n", path, step.N)
	return nil
}
