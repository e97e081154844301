// Command new-step writes the skeleton of the next step (make new-step
// SLUG=… [FUNC=Take]): its own folders, its entry in internal/harness/course/steps.go and
// internal/harness/scenario/stepNN.go and stepNN_test.go. CONTRIBUTING.md
// walks through the rest.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/peakload/workshop/internal/dev/scaffold"
)

func main() {
	slug := flag.String("slug", "", "the step's slug: lower case, digits, dashes (rate-limit)")
	fn := flag.String("func", scaffold.DefaultFunc, "the exercise's function, exported (Take)")
	root := flag.String("root", ".", "the repository")
	flag.Parse()
	files, err := scaffold.New(*root, *slug, *fn)
	for _, f := range files {
		fmt.Println("wrote", f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "new-step:", err)
		os.Exit(1)
	}
	// The files, not their folders' globs: a glob written by hand missed
	// the Vietnamese deck (slides/vi/) once.
	fmt.Println("next: fill the TODOs in the order CONTRIBUTING.md's \"Adding a step\" gives; they are listed by")
	fmt.Println("  grep -n TODO " + strings.Join(files, " "))
}
