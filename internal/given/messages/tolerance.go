package messages

// The words a tolerance (course.Band, course.Bound) prints around its own
// figures in a claim's tolerance line. Figures stay as the English writes
// them (docs/vi/glossary.md: the CLI writes numbers one way).
// Data table: English beside Vietnamese, one key a line, so a translator
// reads the pair; add puts it into both catalogues.
var toleranceWords = []line{
	{"tol.between", "between %s and %s", "trong khoảng %s đến %s"},
}

func init() { add(toleranceWords) }
