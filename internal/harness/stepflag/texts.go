package stepflag

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// Steps, diff, run (cmd/workshop/steps.go).
	{Key: "step.bad_flag", En: "-step %q: want a step's number (2) or directory (02-cache-aside)", Vi: "-step %q: cần số của bước (2) hoặc tên thư mục (02-cache-aside)"},
	{Key: "step.no_dir", En: "-step %q: no such directory; step %d is %s", Vi: "-step %q: không có thư mục này; bước %d là %s"},
}

func init() { messages.Add(texts) }
