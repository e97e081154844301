package messages

// The lines of cmd/workshop's verbs that had none of their own file here:
// watch, run and its load commands, up/down, the worker, capacity, LATENCY,
// a bench against PEAKLOAD_SERVER_URL, report. Commands, variables and
// paths stay as typed, in both languages.
// Data table: English beside Vietnamese, one key a line, so a translator
// reads the pair; add puts it into both catalogues.
var cliLines = []line{
	{"cli.unknown", "unknown command %q\n%s", "không có lệnh %q\n%s"},
	{"cli.stack", "stack: %s — %s\n", "stack: %s — %s\n"},
	{"cli.step_command", "  make step-%d %s\n", "  make step-%d %s\n"},

	// make step-N watch.
	{"watch.head", "\n──── %s  step %d check ────\n", "\n──── %s  check bước %d ────\n"},
	{"watch.solved", "✓ solved — `make step-%d bench` measures it\n", "✓ xong — `make step-%d bench` sẽ đo nó\n"},
	{"watch.waiting", "watching %s for saves (Ctrl-C stops, and stops the services this started)\n",
		"đang theo dõi %s, chờ bạn lưu file (Ctrl-C để dừng, kèm cả các service mà lệnh này đã bật)\n"},

	// make step-N run: where the server is and how to load it.
	{"place.pinned", "server pinned to CPU %s with GOMAXPROCS=%d, as `make step-%d bench` places it; databases on CPU %s\n",
		"server ghim vào CPU %s với GOMAXPROCS=%d, đúng như `make step-%d bench` đặt nó; database trên CPU %s\n"},
	{"place.load_from", "load it from CPU %s, the bench driver's (the server's CPU stays its own):\n",
		"tạo tải từ CPU %s, CPU của driver khi bench (CPU của server để riêng cho nó):\n"},
	{"place.not_pinned", "server not pinned (this machine cannot pin, or PEAKLOAD_NO_PIN is set): it shares every CPU with the load tool, GOMAXPROCS=%d\n",
		"server không được ghim (máy này không ghim CPU được, hoặc đã đặt PEAKLOAD_NO_PIN): nó dùng chung mọi CPU với công cụ tạo tải, GOMAXPROCS=%d\n"},
	{"place.load_with", "load it with:", "tạo tải bằng:"},
	{"place.no_wrk", "  (wrk replays one fixed request: this step's rows build each request, so use k6)",
		"  (wrk chỉ gửi lại một request cố định, còn các hàng của bước này tự dựng từng request: hãy dùng k6)"},
	{"place.dashboard", "  K6_WEB_DASHBOARD=true k6 run … serves k6's live dashboard on http://127.0.0.1:5665 (k6/README.md)",
		"  K6_WEB_DASHBOARD=true k6 run … mở dashboard trực tiếp của k6 ở http://127.0.0.1:5665 (k6/README.md)"},

	// make up / make down, the live-stats worker.
	{"down.leftover", "stopped %s, left by a step-10 bench\n", "đã dừng %s, do một lần bench bước 10 bỏ lại\n"},
	{"worker.start", "worker: updating the live stats of %d hot items every %s\n", "worker: cập nhật live stats của %d item nóng, mỗi %s một lần\n"},

	// CAPACITY=1, ARRIVAL=rate, LATENCY.
	{"capacity.start", "capacity: the highest rate served with p99 ≤ %.0f ms, open-loop probes of %s after a %s warm-up\n",
		"capacity: mức req/s cao nhất mà server phục vụ được với p99 ≤ %.0f ms, mỗi lần dò vòng hở dài %s sau %s warm-up\n"},
	{"capacity.arrival_k6", "ARRIVAL=rate runs on the Go driver; k6's own open loop is its constant-arrival-rate executor",
		"ARRIVAL=rate chạy trên driver Go; vòng hở của chính k6 là executor constant-arrival-rate của nó"},
	{"capacity.arrival_closed", "ARRIVAL=rate runs on the Go driver: %s is a closed loop (wrk2 keeps a rate, and is not driven from here)",
		"ARRIVAL=rate chạy trên driver Go: %s là tải vòng kín (wrk2 giữ được tốc độ, nhưng workshop không điều khiển nó)"},
	{"latency.wrapped", "LATENCY=%s: the server reaches PostgreSQL via %s and Redis via %s, +%s per round trip\n",
		"LATENCY=%s: server tới PostgreSQL qua %s và tới Redis qua %s, mỗi round trip cộng thêm %s\n"},
	{"latency.no_target", "latency-proxy: -target host:port is required", "latency-proxy: cần -target host:port"},

	// A bench against PEAKLOAD_SERVER_URL (the Compose bench profile).
	{"external.original", "%s runs the source's own stack (%s), which PEAKLOAD_SERVER_URL=%s cannot give: bench this step natively",
		"%s chạy stack gốc của nguồn (%s), thứ mà PEAKLOAD_SERVER_URL=%s không cho được: hãy bench bước này trên stack native"},
	{"external.server", "%s needs a server of its own (%s), which PEAKLOAD_SERVER_URL=%s cannot give: bench this step natively",
		"%s cần một server riêng (%s), thứ mà PEAKLOAD_SERVER_URL=%s không cho được: hãy bench bước này trên stack native"},
	{"external.latency", "LATENCY with PEAKLOAD_SERVER_URL: the delay sits between a server the bench starts and its databases; bench step %d natively for it",
		"LATENCY cùng PEAKLOAD_SERVER_URL: độ trễ nằm giữa một server do bench khởi động và các database của nó; muốn đo thì bench bước %d trên stack native"},
	{"note.external", "server: %s, a container of its own (one CPU by Docker's quota, GOMAXPROCS=1; not pinned to a core); its memory is not read from here",
		"server: %s, chạy trong container riêng (một CPU theo quota của Docker, GOMAXPROCS=1; không ghim vào core nào); bộ nhớ của nó không đọc được từ đây"},

	// make report.
	{"report.none", "no results yet: run `make step-N bench` first (or `make report REF=1` for the reference runs)",
		"chưa có kết quả nào: chạy `make step-N bench` trước (hoặc `make report REF=1` để xem các lần chạy tham chiếu)"},
	{"report.wrote", "wrote %s — open it in a browser (it needs no network)\n", "đã ghi %s — mở bằng trình duyệt (không cần mạng)\n"},
	{"report.slides", "wrote %d slide figures in %s/\n", "đã ghi %d hình cho slide vào %s/\n"},

	// The load's progress lines (internal/harness/load): a row's name, then
	// figures and units (req, req/s: the glossary keeps them).
	{"load.of_duration", "of %s", "/ %s"},
	{"load.of_requests", "of %d req", "/ %d req"},
	{"load.open_done", "  %-22s %5.1fs  %9d req  %9.0f req/s of %.0f scheduled, %d missed the schedule, %d in flight at most\n",
		"  %-22s %5.1fs  %9d req  %9.0f req/s trên %.0f theo lịch, %d trễ lịch, tối đa %d request đang xử lý cùng lúc\n"},
}

func init() { add(cliLines) }
