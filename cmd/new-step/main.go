// Command new-step writes the skeleton of the next step (make new-step
// SLUG=…): its own folders, its entry in internal/harness/course/steps.go and
// internal/harness/scenario/stepNN.go. CONTRIBUTING.md walks through the rest.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/peakload/workshop/internal/dev/scaffold"
)

func main() {
	slug := flag.String("slug", "", "the step's slug: lower case, digits, dashes (rate-limit)")
	root := flag.String("root", ".", "the repository")
	flag.Parse()
	files, err := scaffold.New(*root, *slug)
	for _, f := range files {
		fmt.Println("wrote", f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "new-step:", err)
		os.Exit(1)
	}
	fmt.Println("next: fill the TODOs (grep -rn TODO on the files above), then see CONTRIBUTING.md, \"Adding a step\"")
}
