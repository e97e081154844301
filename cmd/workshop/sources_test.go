package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// The reference runs were recorded before claims carried a source: they
// still load, and the report gives each claim the source its step declares
// (step 5's A5-ceiling is ours, not the article's).
func TestReferenceRunsGetTheirSources(t *testing.T) {
	for _, s := range scenario.All() {
		if s.Unrecorded {
			continue // no reference run yet: TestManifestMatchesTheTree holds that there is none
		}
		b, err := os.ReadFile(filepath.Join("..", "..", "results", "reference", fmt.Sprintf("step-%d.json", s.N)))
		if err != nil {
			t.Fatal(err)
		}
		var r result.Result
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("step %d: %v", s.N, err)
		}
		s.FillSources(&r)
		for _, c := range r.Claims {
			if c.Source.Kind == "" {
				t.Errorf("step %d %s: no source after FillSources", s.N, c.ID)
			}
			if c.ID == "A5-ceiling" && c.Source.Kind != result.FromOurs {
				t.Errorf("A5-ceiling reads as %q", c.Source.Name())
			}
		}
	}
}
