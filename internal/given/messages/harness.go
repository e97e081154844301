package messages

// The harness's errors a learner reads when a run cannot go on: a server or
// a database that did not start, a load tool that measured nothing, a
// setting out of range. Each says what happened and, when it can, what to
// do; flags, variables and commands stay as typed.
// Data table: English beside Vietnamese, one key a line, so a translator
// reads the pair; add puts it into both catalogues.
var harnessLines = []line{
	// Servers and databases starting (internal/harness/proc, stack, drill, balancer).
	{"proc.exited", "server exited during start-up:\n%s", "server thoát ngay lúc khởi động:\n%s"},
	{"proc.unhealthy", "server not healthy after %s:\n%s", "sau %s server vẫn chưa sẵn sàng:\n%s"},
	{"proc.no_exit", "server did not exit", "server không chịu thoát"},
	{"proc.killed", "server ignored SIGTERM for 30s; killed", "server lờ SIGTERM suốt 30s nên đã bị kill"},
	{"stack.no_pid", "no pid yet", "chưa có pid"},
	{"drill.mongo_exited", "private MongoDB exited during start-up (log: %s)", "MongoDB riêng thoát ngay lúc khởi động (log: %s)"},
	{"drill.mongo_silent", "private MongoDB on %s did not answer within 30 s", "MongoDB riêng ở %s không trả lời trong vòng 30 s"},
	{"drill.redis_silent", "private redis-server on %s did not answer within 10 s", "redis-server riêng ở %s không trả lời trong vòng 10 s"},
	{"balancer.exited", "haproxy exited during start-up:\n%s", "haproxy thoát ngay lúc khởi động:\n%s"},
	{"balancer.not_forwarding", "haproxy not forwarding after %s:\n%s", "sau %s haproxy vẫn chưa chuyển tiếp request:\n%s"},
	{"balancer.no_request", "%s: the replicas counted no request on %s", "%s: các replica không đếm được request nào ở %s"},

	// The load tools (internal/harness/load).
	{"load.k6_no_mark", "k6 ran, but the script's meter never marked the window's %s (MARK_URL): the window's counters are unknown\n%s",
		"k6 đã chạy, nhưng bộ đo của script không đánh dấu %s của cửa sổ đo (MARK_URL): không biết bộ đếm của cửa sổ đó\n%s"},
	{"load.k6_no_requests", "the summary has no http_reqs: no request was made", "bản tóm tắt không có http_reqs: không request nào được gửi"},
	{"load.not_counted", "%s: MongoDB did not count the events in 3 minutes", "%s: sau 3 phút MongoDB vẫn chưa đếm xong các event"},
	{"load.base_moving", "MongoDB's count of the events did not hold still for a minute before the load: another writer?", "trước khi tạo tải, chờ cả phút mà số event MongoDB đếm được vẫn chưa đứng yên: có ai khác đang ghi vào không?"},
	{"load.not_persisted", "%s: %.0f events accepted but only %.0f persisted after 3 minutes", "%s: nhận %.0f event nhưng sau 3 phút chỉ ghi xuống %.0f"},
	{"load.bad_rate", "open loop: rate %.0f req/s, want > 0", "vòng hở: tốc độ %.0f req/s, cần > 0"},
	{"load.wrk_fixed", "variant %s builds each request itself; wrk can only replay a fixed one", "biến thể %s tự dựng từng request; wrk chỉ gửi lại được một request cố định"},
	{"load.wrk_no_summary", "wrk printed no summary:\n%s", "wrk không in bản tóm tắt nào:\n%s"},

	// Settings a learner gives (LATENCY=, make probe's VUS= DURATION= RUNS= REQUESTS=).
	{"latency.bad", "LATENCY=%q: want a delay like 0.2ms", "LATENCY=%q: cần một độ trễ dạng 0.2ms"},
	{"probe.bad_vus", "VUs=%d: want 1 to %d", "VUs=%d: cần từ 1 tới %d"},
	{"probe.bad_duration", "duration %s: want more than 0, at most %s", "duration %s: cần lớn hơn 0, tối đa %s"},
	{"probe.bad_runs", "RUNS=%d: want 1 to %d", "RUNS=%d: cần từ 1 tới %d"},
	{"probe.bad_path", "%s:%d: path %q: want it to start with /", "%s:%d: path %q: cần bắt đầu bằng /"},
	{"probe.bad_count", "%s: %d requests, want 1 to %d", "%s: %d request, cần từ 1 tới %d"},

	// The benches (internal/harness/scenario, original).
	{"scenario.no_bench", "no step %d has a bench yet (have %v)", "chưa có bước %d nào có bench (hiện có %v)"},
	{"scenario.no_mongo", "no MongoDB connection", "không có kết nối MongoDB"},
	{"scenario.raw_insert_failed", "raw-insert.js RAW_CONCURRENCY=%d: %v (its stderr is above)", "raw-insert.js RAW_CONCURRENCY=%d: %v (stderr của nó ở phía trên)"},
	{"scenario.still_moving", "%d of %d increments applied after %s, still moving", "%d trên %d lần cộng đã được áp dụng sau %s, và vẫn đang tăng"},
	{"original.unknown_runtime", "original %s: unknown runtime %q", "bản gốc %s: không biết runtime %q"},
}

func init() { add(harnessLines) }
