package proc

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

	// Servers and databases starting (internal/harness/proc, stack, drill, balancer).
	{Key: "proc.exited", En: "server exited during start-up:\n%s", Vi: "server thoát ngay lúc khởi động:\n%s"},
	{Key: "proc.unhealthy", En: "server not healthy after %s:\n%s", Vi: "sau %s server vẫn chưa sẵn sàng:\n%s"},
	{Key: "proc.no_exit", En: "server did not exit", Vi: "server không chịu thoát"},
	{Key: "proc.killed", En: "server ignored SIGTERM for 30s; killed", Vi: "server lờ SIGTERM suốt 30s nên đã bị kill"},
}

func init() { messages.Add(texts) }
