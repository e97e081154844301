package main

import (
	"testing"

	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stepflag"
)

// The Compose bench profile passes STEP as a directory (02-cache-aside);
// the Makefile passes a number. Both name the same step; a wrong name is an
// error, never another step.
func TestStepFlagTakesNumberOrDirectory(t *testing.T) {
	for _, arg := range []string{"2", "02-cache-aside"} {
		step, err := stepflag.Parse("bench", []string{"-step", arg})
		if err != nil || step.N != 2 {
			t.Errorf("-step %s: step %d, %v; want step 2", arg, step.N, err)
		}
	}
	for _, arg := range []string{"02-etag", "cache-aside", "", "2x"} {
		if step, err := stepflag.Parse("bench", []string{"-step", arg}); err == nil {
			t.Errorf("-step %q: step %d, want an error", arg, step.N)
		}
	}
}

// externalFromEnv reads the configuration, then the external server.
func externalFromEnv(t *testing.T) (string, error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return "", err
	}
	return externalServer(cfg, externalTestStep(t, 2))
}

func TestExternalServerRefusesLatency(t *testing.T) {
	t.Setenv("PEAKLOAD_SERVER_URL", "http://app:8080/")
	if url, err := externalFromEnv(t); err != nil || url != "http://app:8080" {
		t.Errorf("externalServer: %q, %v", url, err)
	}
	t.Setenv("LATENCY", "0.2ms")
	if _, err := externalFromEnv(t); err == nil {
		t.Error("LATENCY with a server in another container: want an error (the delay cannot be put in front of it)")
	}
	t.Setenv("LATENCY", "")
	t.Setenv("PEAKLOAD_SERVER_URL", "app:8080")
	if _, err := externalFromEnv(t); err == nil {
		t.Error("PEAKLOAD_SERVER_URL without http://: want an error")
	}
}

func externalTestStep(t *testing.T, n int) scenario.Step {
	t.Helper()
	s, err := scenario.Get(n)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
