package main

import (
	"os"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/probe/probetest"
)

// A dead or failing target is an error (main exits 1 on it) and no
// results file is written: no file claims a figure of a failure.
func TestProbeAndAuditOfABadTargetWriteNothing(t *testing.T) {
	dir := t.TempDir()
	useResults(t, dir)
	for _, base := range []string{probetest.ClosedPort(t), probetest.Serve(t, probetest.Status(500))} {
		for name, run := range map[string]func() error{
			"probe": func() error {
				return runProbe(t.Context(), config.Config{Quick: true}, []string{"-url", base + "/items/1"})
			},
			"audit": func() error {
				return runAudit(t.Context(), config.Config{}, []string{"-url", base + "/items/1", "-slowloris", time.Second.String()})
			},
		} {
			if err := run(); err == nil {
				t.Errorf("%s of %s: no error", name, base)
			}
		}
	}
	if files, _ := os.ReadDir(dir); len(files) > 0 {
		t.Errorf("results written for a failed target: %v", files)
	}
}

// useResults points resultsDir at dir for t, as PEAKLOAD_RESULTS does
// through main's one parse (settings), restored at t's end.
func useResults(t *testing.T, dir string) {
	old := settings
	settings.ResultsDir = dir
	t.Cleanup(func() { settings = old })
}
