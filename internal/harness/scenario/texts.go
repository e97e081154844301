package scenario

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// The harness's errors a learner reads when a run cannot go on: a server or
	// a database that did not start, a load tool that measured nothing, a
	// setting out of range. Each says what happened and, when it can, what to
	// do; flags, variables and commands stay as typed.

	// The benches (internal/harness/scenario, original).
	{Key: "scenario.no_bench", En: "no step %d has a bench yet (have %v)", Vi: "chưa có bước %d nào có bench (hiện có %v)"},
	{Key: "scenario.no_mongo", En: "no MongoDB connection", Vi: "không có kết nối MongoDB"},
	{Key: "scenario.raw_insert_failed", En: "raw-insert.js RAW_CONCURRENCY=%d: %v (its stderr is above)", Vi: "raw-insert.js RAW_CONCURRENCY=%d: %v (stderr của nó ở phía trên)"},
	{Key: "scenario.still_moving", En: "%d of %d increments applied after %s, still moving", Vi: "%d trên %d lần cộng đã được áp dụng sau %s, và vẫn đang tăng"},
}

func init() { messages.Add(texts) }
