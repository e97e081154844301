package load

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// The lines of cmd/workshop's verbs that had none of their own file here:
	// watch, run and its load commands, up/down, the worker, capacity, LATENCY,
	// a bench against PEAKLOAD_SERVER_URL, report. Commands, variables and
	// paths stay as typed, in both languages.

	// The load's progress lines (internal/harness/load): a row's name, then
	// figures and units (req, req/s: the glossary keeps them).
	{Key: "load.of_duration", En: "of %s", Vi: "/ %s"},
	{Key: "load.of_requests", En: "of %d req", Vi: "/ %d req"},
	{Key: "load.open_done", En: "  %-22s %5.1fs  %9d req  %9.0f req/s of %.0f scheduled, %d missed the schedule, %d in flight at most\n", Vi: "  %-22s %5.1fs  %9d req  %9.0f req/s trên %.0f theo lịch, %d trễ lịch, tối đa %d request đang xử lý cùng lúc\n"},

	// The harness's errors a learner reads when a run cannot go on: a server or
	// a database that did not start, a load tool that measured nothing, a
	// setting out of range. Each says what happened and, when it can, what to
	// do; flags, variables and commands stay as typed.

	// The load tools (internal/harness/load).
	{Key: "load.k6_no_mark", En: "k6 ran, but the script's meter never marked the window's %s (MARK_URL): the window's counters are unknown\n%s", Vi: "k6 đã chạy, nhưng bộ đo của script không đánh dấu %s của cửa sổ đo (MARK_URL): không biết bộ đếm của cửa sổ đó\n%s"},
	{Key: "load.k6_no_requests", En: "the summary has no http_reqs: no request was made", Vi: "bản tóm tắt không có http_reqs: không request nào được gửi"},
	{Key: "load.not_counted", En: "%s: MongoDB did not count the events in 3 minutes", Vi: "%s: sau 3 phút MongoDB vẫn chưa đếm xong các event"},
	{Key: "load.base_moving", En: "MongoDB's count of the events did not hold still for a minute before the load: another writer?", Vi: "trước khi tạo tải, chờ cả phút mà số event MongoDB đếm được vẫn chưa đứng yên: có ai khác đang ghi vào không?"},
	{Key: "load.not_persisted", En: "%s: %.0f events accepted but only %.0f persisted after 3 minutes", Vi: "%s: nhận %.0f event nhưng sau 3 phút chỉ ghi xuống %.0f"},
	{Key: "load.bad_rate", En: "open loop: rate %.0f req/s, want > 0", Vi: "vòng hở: tốc độ %.0f req/s, cần > 0"},
	{Key: "load.wrk_fixed", En: "variant %s builds each request itself; wrk can only replay a fixed one", Vi: "biến thể %s tự dựng từng request; wrk chỉ gửi lại được một request cố định"},
	{Key: "load.wrk_no_summary", En: "wrk printed no summary:\n%s", Vi: "wrk không in bản tóm tắt nào:\n%s"},
}

func init() { messages.Add(texts) }
