package main

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/config"
)

// TestCompareNeedsBothRunsOfOneStep: A without B, or runs of two steps,
// are refused with what to pass instead.
func TestCompareNeedsBothRunsOfOneStep(t *testing.T) {
	if err := runCompare(t.Context(), config.Config{}, []string{"-a", "../../results/reference/step-2.json"}); err == nil || !strings.Contains(err.Error(), "B=") {
		t.Errorf("A alone: %v", err)
	}
	err := runCompare(t.Context(), config.Config{}, []string{"-a", "../../results/reference/step-2.json", "-b", "../../results/reference/step-3.json"})
	if err == nil || !strings.Contains(err.Error(), "one step") {
		t.Errorf("steps 2 and 3: %v", err)
	}
	if err := runCompare(t.Context(), config.Config{}, []string{"-a", "../../results/reference/step-2.json", "-b", "../../go.mod"}); err == nil {
		t.Error("go.mod taken for a results file")
	}
	if err := runCompare(t.Context(), config.Config{}, []string{"-a", "../../results/reference/step-2.json", "-b", "../../results/reference/step-2.json"}); err != nil {
		t.Errorf("a run against itself: %v", err)
	}
}
