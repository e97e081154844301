package balancer

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
	{Key: "balancer.exited", En: "haproxy exited during start-up:\n%s", Vi: "haproxy thoát ngay lúc khởi động:\n%s"},
	{Key: "balancer.not_forwarding", En: "haproxy not forwarding after %s:\n%s", Vi: "sau %s haproxy vẫn chưa chuyển tiếp request:\n%s"},
	{Key: "balancer.no_request", En: "%s: the replicas counted no request on %s", Vi: "%s: các replica không đếm được request nào ở %s"},
}

func init() { messages.Add(texts) }
