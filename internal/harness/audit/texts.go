package audit

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// auditLines are the audit command's own lines (cmd/workshop/audit.go),
	// printed once in the run's language and never stored.

	{Key: "audit.queries_metrics", En: "QUERIES= names a counter of the service's metrics: give METRICS=url too", Vi: "QUERIES= là tên một bộ đếm trong metrics của service: hãy đưa thêm METRICS=url"},
	{Key: "audit.queries_none", En: "QUERIES=%s is not a metric of METRICS=%s (it has %d, e.g. %s)", Vi: "QUERIES=%s không phải là một metric của METRICS=%s (trang đó có %d metric, ví dụ %s)"},
	{Key: "audit.first_failed", En: "the first requests, the cold key's %d GETs of %s sent before anything else, got no answer (%s; each request may take %s): nothing was audited; is the service up at %s, and does the URL name a route that succeeds?", Vi: "những request đầu tiên, %d request GET %s của key nguội gửi trước mọi thứ khác, không nhận được câu trả lời nào (%s; mỗi request được chờ tối đa %s): chưa kiểm tra gì cả; service có đang chạy ở %s không, và URL có trỏ tới một route trả lời thành công không?"},
}

func init() { messages.Add(texts) }
