package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/scenario"
)

// runCompare prints every step's latest claims in one table: ours, the
// article's, reproduced or not. It reads results/; run the benches first.
func runCompare() error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "step\tclaim\tverdict\tmeasured\twhen")
	for _, step := range scenario.All() {
		b, err := os.ReadFile(filepath.Join(resultsDir(), fmt.Sprintf("step-%d", step.N), "latest.json"))
		if err != nil {
			fmt.Fprintf(tw, "%d %s\t-\tno result\tmake step-%d bench\t\n", step.N, step.Slug, step.N)
			continue
		}
		var r bench.Result
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("step %d: %w", step.N, err)
		}
		for _, c := range r.Claims {
			v := c.Verdict()
			if c.Unstable {
				v = "UNSTABLE"
			}
			fmt.Fprintf(tw, "%d %s\t%s\t%s\t%s\t%s\n", step.N, step.Slug, c.ID, v, c.Measured, r.StartedAt.Format("2006-01-02 15:04"))
		}
	}
	return tw.Flush()
}
