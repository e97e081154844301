package probe

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
	{Key: "probe.bad_vus", En: "VUs=%d: want 1 to %d", Vi: "VUs=%d: cần từ 1 tới %d"},
	{Key: "probe.bad_duration", En: "duration %s: want more than 0, at most %s", Vi: "duration %s: cần lớn hơn 0, tối đa %s"},
	{Key: "probe.bad_runs", En: "RUNS=%d: want 1 to %d", Vi: "RUNS=%d: cần từ 1 tới %d"},
	{Key: "probe.bad_path", En: "%s:%d: path %q: want it to start with /", Vi: "%s:%d: path %q: cần bắt đầu bằng /"},
	{Key: "probe.bad_count", En: "%s: %d requests, want 1 to %d", Vi: "%s: %d request, cần từ 1 tới %d"},

	// make probe's lines (cmd/workshop/probe.go, internal/harness/probe): said to a
	// person, never stored. Each names the make variable the README teaches
	// (URL=, METRICS=, PER_REQUEST=, ALLOW_REMOTE=1), not a flag.

	{Key: "probe.rules", En: "each request is sent once (no retry) and is an error if unanswered within %s; a row with more than %.0f%% errors failed: it gets no req/s and no results file is written", Vi: "mỗi request chỉ gửi một lần (không thử lại) và bị tính là lỗi nếu sau %s chưa có trả lời; hàng nào lỗi quá %.0f%% là hỏng: không có req/s, và không file kết quả nào được ghi"},
	{Key: "probe.first_failed", En: "%s: the first request, sent before any load, failed (%s; each request may take %s): nothing was measured; is the service up at %s, and does the URL name a route that succeeds?", Vi: "%s: request đầu tiên, gửi trước khi tạo tải, đã lỗi (%s; mỗi request được chờ tối đa %s): chưa đo gì cả; service có đang chạy ở %s không, và URL có trỏ tới một route trả lời thành công không?"},
	{Key: "probe.row_failed", En: "%s failed: %d of %d requests were errors (%.1f%%, more than the %.0f%% allowed; the first: %s): no req/s is given for a service that fails, and no results file was written", Vi: "%s hỏng: %d trên %d request bị lỗi (%.1f%%, quá mức %.0f%% cho phép; lỗi đầu tiên: %s): service đang lỗi thì không có req/s nào cả, và không file kết quả nào được ghi"},
	{Key: "probe.row_silent", En: "%s failed: no answer in its %s window (each request may take %s): no req/s is given, and no results file was written", Vi: "%s hỏng: không có trả lời nào trong cửa sổ %s của nó (mỗi request chờ tối đa %s): không có req/s, và không ghi file kết quả nào"},
	{Key: "probe.metrics_failed", En: "METRICS=%s, read before the load: %v", Vi: "METRICS=%s, đọc trước khi tạo tải: %v"},
	{Key: "probe.metrics_not_text", En: "METRICS=%s is not Prometheus text (no metric in its answer): give the service's metrics page, often /metrics", Vi: "METRICS=%s không phải dạng text của Prometheus (không có metric nào trong trả lời): hãy đưa trang metrics của service, thường là /metrics"},
	{Key: "probe.per_request_none", En: "PER_REQUEST %q matches no metric of METRICS=%s (a pattern matches a whole name; it has %d, e.g. %s)", Vi: "PER_REQUEST %q không khớp metric nào của METRICS=%s (mỗi pattern phải khớp nguyên tên; trang đó có %d metric, ví dụ %s)"},
	{Key: "probe.per_request_metrics", En: "PER_REQUEST names counters of the service's metrics: give METRICS=url too", Vi: "PER_REQUEST chỉ ra các bộ đếm trong metrics của service: hãy đưa thêm METRICS=url"},
	{Key: "probe.per_request_bad", En: "PER_REQUEST %q: %v", Vi: "PER_REQUEST %q: %v"},

	// The target's checks (internal/harness/probe/target.go), shared with make audit.
	{Key: "target.want", En: "URL %q: want http://host:port/path", Vi: "URL %q: cần dạng http://host:port/path"},
	{Key: "target.no_host", En: "URL %q names no host: want http://127.0.0.1:PORT/path", Vi: "URL %q không có host: cần dạng http://127.0.0.1:PORT/path"},
	{Key: "target.tls", En: "URL %q: only http:// is driven (put the probe beside the service, before its TLS terminator)", Vi: "URL %q: chỉ chạy được với http:// (đặt probe cạnh service, phía trước chỗ kết thúc TLS)"},
	{Key: "target.scheme", En: "URL %q: scheme %q, want http://", Vi: "URL %q: scheme %q, cần http://"},
	{Key: "target.resolve", En: "URL %q: resolving %s: %v", Vi: "URL %q: phân giải %s: %v"},
	{Key: "target.remote", En: "%s resolves to %s, not a loopback address: only this machine is loaded unless ALLOW_REMOTE=1 is given (and the service is yours)", Vi: "%s phân giải ra %s, không phải địa chỉ loopback: chỉ tạo tải lên chính máy này, trừ khi có ALLOW_REMOTE=1 (và service là của bạn)"},
}

func init() { messages.Add(texts) }
