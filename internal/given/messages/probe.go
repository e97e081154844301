package messages

// make probe's lines (cmd/workshop/probe.go, internal/harness/probe): said to a
// person, never stored. Each names the make variable the README teaches
// (URL=, METRICS=, PER_REQUEST=, ALLOW_REMOTE=1), not a flag.
// Data table: English beside Vietnamese, one key a line, so a translator
// reads the pair; add puts it into both catalogues.
var probeLines = []line{
	{"probe.usage", "usage: make probe URL=http://127.0.0.1:8080/path [REQUESTS=file] [METRICS=url PER_REQUEST='re,re'] [VUS= DURATION= RUNS= CAPACITY=1]",
		"cách dùng: make probe URL=http://127.0.0.1:8080/path [REQUESTS=file] [METRICS=url PER_REQUEST='re,re'] [VUS= DURATION= RUNS= CAPACITY=1]"},
	{"probe.start", "probe %s (%s): %d VUs, %s per row after a %s warm-up, %d round(s)\n",
		"probe %s (%s): %d VUs, mỗi hàng %s sau %s warm-up, %d vòng\n"},
	{"probe.rules", "each request is sent once (no retry) and is an error if unanswered within %s; a row with more than %.0f%% errors failed: it gets no req/s and no results file is written",
		"mỗi request chỉ gửi một lần (không thử lại) và bị tính là lỗi nếu sau %s chưa có trả lời; hàng nào lỗi quá %.0f%% là hỏng: không có req/s, và không file kết quả nào được ghi"},
	{"probe.first_failed", "%s: the first request, sent before any load, failed (%s; each request may take %s): nothing was measured; is the service up at %s, and does the URL name a route that succeeds?",
		"%s: request đầu tiên, gửi trước khi tạo tải, đã lỗi (%s; mỗi request được chờ tối đa %s): chưa đo gì cả; service có đang chạy ở %s không, và URL có trỏ tới một route trả lời thành công không?"},
	{"probe.row_failed", "%s failed: %d of %d requests were errors (%.1f%%, more than the %.0f%% allowed; the first: %s): no req/s is given for a service that fails, and no results file was written",
		"%s hỏng: %d trên %d request bị lỗi (%.1f%%, quá mức %.0f%% cho phép; lỗi đầu tiên: %s): service đang lỗi thì không có req/s nào cả, và không file kết quả nào được ghi"},
	{"probe.row_silent", "%s failed: no answer in its %s window (each request may take %s): no req/s is given, and no results file was written",
		"%s hỏng: không có trả lời nào trong cửa sổ %s của nó (mỗi request chờ tối đa %s): không có req/s, và không ghi file kết quả nào"},
	{"probe.metrics_failed", "METRICS=%s, read before the load: %v", "METRICS=%s, đọc trước khi tạo tải: %v"},
	{"probe.metrics_not_text", "METRICS=%s is not Prometheus text (no metric in its answer): give the service's metrics page, often /metrics",
		"METRICS=%s không phải dạng text của Prometheus (không có metric nào trong trả lời): hãy đưa trang metrics của service, thường là /metrics"},
	{"probe.per_request_none", "PER_REQUEST %q matches no metric of METRICS=%s (a pattern matches a whole name; it has %d, e.g. %s)",
		"PER_REQUEST %q không khớp metric nào của METRICS=%s (mỗi pattern phải khớp nguyên tên; trang đó có %d metric, ví dụ %s)"},
	{"probe.per_request_metrics", "PER_REQUEST names counters of the service's metrics: give METRICS=url too",
		"PER_REQUEST chỉ ra các bộ đếm trong metrics của service: hãy đưa thêm METRICS=url"},
	{"probe.per_request_bad", "PER_REQUEST %q: %v", "PER_REQUEST %q: %v"},
	{"probe.wrote", "\nwrote %s\n  drawn by make report; beside another probe: make compare A=<that file> B=%s\n",
		"\nđã ghi %s\n  make report sẽ vẽ nó; đặt cạnh một probe khác: make compare A=<file đó> B=%s\n"},

	// The target's checks (internal/harness/probe/target.go), shared with make audit.
	{"target.want", "URL %q: want http://host:port/path", "URL %q: cần dạng http://host:port/path"},
	{"target.no_host", "URL %q names no host: want http://127.0.0.1:PORT/path", "URL %q không có host: cần dạng http://127.0.0.1:PORT/path"},
	{"target.tls", "URL %q: only http:// is driven (put the probe beside the service, before its TLS terminator)",
		"URL %q: chỉ chạy được với http:// (đặt probe cạnh service, phía trước chỗ kết thúc TLS)"},
	{"target.scheme", "URL %q: scheme %q, want http://", "URL %q: scheme %q, cần http://"},
	{"target.resolve", "URL %q: resolving %s: %v", "URL %q: phân giải %s: %v"},
	{"target.remote", "%s resolves to %s, not a loopback address: only this machine is loaded unless ALLOW_REMOTE=1 is given (and the service is yours)",
		"%s phân giải ra %s, không phải địa chỉ loopback: chỉ tạo tải lên chính máy này, trừ khi có ALLOW_REMOTE=1 (và service là của bạn)"},

	// make compare of two probes (internal/harness/comparison).
	{"compare.other_url", "  note: A and B probed different services (%s → %s): the change is between services, not a change of one\n",
		"  ghi chú: A và B probe hai service khác nhau (%s → %s): chênh lệch là giữa hai service, không phải thay đổi của một service\n"},
	{"table.fig.errors", "errors", "lỗi"},
}

func init() { add(probeLines) }
