package course

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// The words a tolerance (course.Band, course.Bound) prints around its own
	// figures in a claim's tolerance line. Figures stay as the English writes
	// them (docs/vi/glossary.md: the CLI writes numbers one way).

	{Key: "tol.between", En: "between %s and %s", Vi: "trong khoảng %s đến %s"},

	// Reset (cmd/workshop/reset.go).
	{Key: "words.and", En: " and ", Vi: " và "},
}

func init() { messages.Add(texts) }
