package latency

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

	// Settings a learner gives (LATENCY=, make probe's VUS= DURATION= RUNS= REQUESTS=).
	{Key: "latency.bad", En: "LATENCY=%q: want a delay like 0.2ms", Vi: "LATENCY=%q: cần một độ trễ dạng 0.2ms"},
}

func init() { messages.Add(texts) }
