package main

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// auditLines are the audit command's own lines (cmd/workshop/audit.go),
	// printed once in the run's language and never stored.

	{Key: "audit.usage", En: "usage: make audit URL=http://127.0.0.1:8080/path [POST=/route] [METRICS=url QUERIES=name] [COLD=/path CHANGE='POST /path'] [COLD_N= SLOWLORIS= BURST= BURST_POST=1 BODY=] [ALLOW_REMOTE=1]", Vi: "cách dùng: make audit URL=http://127.0.0.1:8080/path [POST=/route] [METRICS=url QUERIES=tên] [COLD=/path CHANGE='POST /path'] [COLD_N= SLOWLORIS= BURST= BURST_POST=1 BODY=] [ALLOW_REMOTE=1]"},
	{Key: "audit.flags", En: "make variable, the CLI's flag (workshop audit -h), its default, what it sets:\n", Vi: "biến của make, flag tương ứng của CLI (workshop audit -h), giá trị mặc định, nó đặt gì:\n"},
	{Key: "audit.flag.url", En: "a GET route of the service, e.g. http://127.0.0.1:8080/items/1", Vi: "một route GET của service, ví dụ http://127.0.0.1:8080/items/1"},
	{Key: "audit.flag.metrics", En: "the service's Prometheus metrics URL (its CPU for the burst; QUERIES= for the cold key)", Vi: "URL metrics Prometheus của service (CPU của nó cho burst; QUERIES= cho key nguội)"},
	{Key: "audit.flag.allow_remote", En: "audit a host that is not this machine (yours, and only yours)", Vi: "audit một host không phải máy này (của bạn, và chỉ của bạn)"},
	{Key: "audit.flag.post", En: "a route that takes a JSON body (the shell's probes); default: the URL's path", Vi: "một route nhận body JSON (các phép thử vỏ server); mặc định: path của URL"},
	{Key: "audit.flag.cold", En: "the cold key's path (default: the URL's): one nobody has read", Vi: "path của key nguội (mặc định: của URL): một key chưa ai đọc"},
	{Key: "audit.flag.change", En: "'METHOD /path' sent just before the cold key's requests (a write that invalidates it)", Vi: "'METHOD /path' gửi ngay trước các request của key nguội (một lần ghi làm nó mất hiệu lực)"},
	{Key: "audit.flag.queries", En: "the metric counting the service's database queries (with METRICS=)", Vi: "metric đếm số query database của service (đi cùng METRICS=)"},
	{Key: "audit.flag.n", En: "concurrent identical requests for the cold key", Vi: "số request giống hệt nhau gửi cùng lúc cho key nguội"},
	{Key: "audit.flag.slowloris", En: "how long a trickling client may hold a connection", Vi: "một client nhỏ giọt được giữ connection bao lâu"},
	{Key: "audit.flag.burst", En: "the open-loop burst's length (0: no burst)", Vi: "độ dài của burst vòng hở (0: không burst)"},
	{Key: "audit.flag.burst_post", En: "burst the POST= route with BODY= instead of GETs of the URL", Vi: "burst vào route POST= với BODY= thay vì GET vào URL"},
	{Key: "audit.flag.body", En: "the JSON body of BURST_POST=1 (default {})", Vi: "body JSON của BURST_POST=1 (mặc định {})"},
	{Key: "audit.start", En: "audit %s (%s): the slowloris probe waits up to %s, the burst lasts %s\n", Vi: "audit %s (%s): phép thử slowloris chờ tối đa %s, burst kéo dài %s\n"},
	{Key: "audit.evidence", En: "\nevidence:\n", Vi: "\nbằng chứng:\n"},
	{Key: "audit.wrote", En: "\nwrote %s (drawn by make report)\n", Vi: "\nđã ghi %s (make report đưa nó vào báo cáo)\n"},

	// The lines of cmd/workshop's verbs that had none of their own file here:
	// watch, run and its load commands, up/down, the worker, capacity, LATENCY,
	// a bench against PEAKLOAD_SERVER_URL, report. Commands, variables and
	// paths stay as typed, in both languages.

	{Key: "cli.unknown", En: "unknown command %q\n%s", Vi: "không có lệnh %q\n%s"},
	{Key: "cli.stack", En: "stack: %s — %s\n", Vi: "stack: %s — %s\n"},
	{Key: "cli.step_command", En: "  make step-%d %s\n", Vi: "  make step-%d %s\n"},

	// make step-N watch.
	{Key: "watch.head", En: "\n──── %s  step %d check ────\n", Vi: "\n──── %s  check bước %d ────\n"},
	{Key: "watch.solved", En: "✓ solved — `make step-%d bench` measures it\n", Vi: "✓ xong — `make step-%d bench` sẽ đo nó\n"},
	{Key: "watch.waiting", En: "watching %s for saves (Ctrl-C stops, and stops the services this started)\n", Vi: "đang theo dõi %s, chờ bạn lưu file (Ctrl-C để dừng, kèm cả các service mà lệnh này đã bật)\n"},

	// make step-N run: where the server is and how to load it.
	{Key: "place.pinned", En: "server pinned to CPU %s with GOMAXPROCS=%d, as `make step-%d bench` places it; databases on CPU %s\n", Vi: "server ghim vào CPU %s với GOMAXPROCS=%d, đúng như `make step-%d bench` đặt nó; database trên CPU %s\n"},
	{Key: "place.load_from", En: "load it from CPU %s, the bench driver's (the server's CPU stays its own):\n", Vi: "tạo tải từ CPU %s, CPU của driver khi bench (CPU của server để riêng cho nó):\n"},
	{Key: "place.not_pinned", En: "server not pinned (this machine cannot pin, or PEAKLOAD_NO_PIN is set): it shares every CPU with the load tool, GOMAXPROCS=%d\n", Vi: "server không được ghim (máy này không ghim CPU được, hoặc đã đặt PEAKLOAD_NO_PIN): nó dùng chung mọi CPU với công cụ tạo tải, GOMAXPROCS=%d\n"},
	{Key: "place.load_with", En: "load it with:", Vi: "tạo tải bằng:"},
	{Key: "place.no_wrk", En: "  (wrk replays one fixed request: this step's rows build each request, so use k6)", Vi: "  (wrk chỉ gửi lại một request cố định, còn các hàng của bước này tự dựng từng request: hãy dùng k6)"},
	{Key: "place.dashboard", En: "  K6_WEB_DASHBOARD=true k6 run … serves k6's live dashboard on http://127.0.0.1:5665 (k6/README.md)", Vi: "  K6_WEB_DASHBOARD=true k6 run … mở dashboard trực tiếp của k6 ở http://127.0.0.1:5665 (k6/README.vi.md)"},

	// make up / make down, the live-stats worker.
	{Key: "down.leftover", En: "stopped %s, left by a step-10 bench\n", Vi: "đã dừng %s, do một lần bench bước 10 bỏ lại\n"},
	{Key: "worker.start", En: "worker: updating the live stats of %d hot items every %s\n", Vi: "worker: cập nhật live stats của %d item nóng, mỗi %s một lần\n"},

	// CAPACITY=1, ARRIVAL=rate, LATENCY.
	{Key: "capacity.start", En: "capacity: the highest rate served with p99 ≤ %.0f ms, open-loop probes of %s after a %s warm-up\n", Vi: "capacity: mức req/s cao nhất mà server phục vụ được với p99 ≤ %.0f ms, mỗi lần dò vòng hở dài %s sau %s warm-up\n"},
	{Key: "capacity.arrival_k6", En: "ARRIVAL=rate runs on the Go driver; k6's own open loop is its constant-arrival-rate executor", Vi: "ARRIVAL=rate chạy trên driver Go; vòng hở của chính k6 là executor constant-arrival-rate của nó"},
	{Key: "capacity.arrival_closed", En: "ARRIVAL=rate runs on the Go driver: %s is a closed loop (wrk2 keeps a rate, and is not driven from here)", Vi: "ARRIVAL=rate chạy trên driver Go: %s là tải vòng kín (wrk2 giữ được tốc độ, nhưng workshop không điều khiển nó)"},
	{Key: "latency.wrapped", En: "LATENCY=%s: the server reaches PostgreSQL via %s and Redis via %s, +%s per round trip\n", Vi: "LATENCY=%s: server tới PostgreSQL qua %s và tới Redis qua %s, mỗi round trip cộng thêm %s\n"},
	{Key: "latency.no_target", En: "latency-proxy: -target host:port is required", Vi: "latency-proxy: cần -target host:port"},

	// A bench against PEAKLOAD_SERVER_URL (the Compose bench profile).
	{Key: "external.original", En: "%s runs the source's own stack (%s), which PEAKLOAD_SERVER_URL=%s cannot give: bench this step natively", Vi: "%s chạy stack gốc của nguồn (%s), thứ mà PEAKLOAD_SERVER_URL=%s không cho được: hãy bench bước này trên stack native"},
	{Key: "external.server", En: "%s needs a server of its own (%s), which PEAKLOAD_SERVER_URL=%s cannot give: bench this step natively", Vi: "%s cần một server riêng (%s), thứ mà PEAKLOAD_SERVER_URL=%s không cho được: hãy bench bước này trên stack native"},
	{Key: "external.latency", En: "LATENCY with PEAKLOAD_SERVER_URL: the delay sits between a server the bench starts and its databases; bench step %d natively for it", Vi: "LATENCY cùng PEAKLOAD_SERVER_URL: độ trễ nằm giữa một server do bench khởi động và các database của nó; muốn đo thì bench bước %d trên stack native"},

	// make report.
	{Key: "report.none", En: "no results yet: run `make step-N bench` first (or `make report REF=1` for the reference runs)", Vi: "chưa có kết quả nào: chạy `make step-N bench` trước (hoặc `make report REF=1` để xem các lần chạy tham chiếu)"},
	{Key: "report.wrote", En: "wrote %s — open it in a browser (it needs no network)\n", Vi: "đã ghi %s — mở bằng trình duyệt (không cần mạng)\n"},
	{Key: "report.slides", En: "wrote %d slide figures in %s/\n", Vi: "đã ghi %d hình cho slide vào %s/\n"},

	// make step-N drill's lines (cmd/workshop/drill.go, internal/harness/drill):
	// its progress, its table and its verdict, said to a person. The drill's
	// results file (its note, the moments on its chart) stays English, as every
	// stored line does. Counter names, HTTP statuses and signals (5xx, 503 +
	// Retry-After, SIGTERM, SIGKILL) are written as typed in both languages.

	// The heading and the closing lines (cmd/workshop/drill.go).
	{Key: "drill.none", En: "step %d has no drill (steps %s do)", Vi: "bước %d không có bài diễn tập (các bước %s có)"},
	{Key: "drill.yours", En: "your code", Vi: "code của bạn"},
	{Key: "drill.reference", En: "the reference (SOLUTION=1)", Vi: "lời giải mẫu (SOLUTION=1)"},
	{Key: "drill.write_start", En: "step %d drill — %s, %s, on a private %s (server log: %s)\n", Vi: "diễn tập bước %d — %s, %s, trên một %s riêng (log của server: %s)\n"},
	{Key: "drill.poison_part", En: ", %d poison events (refused for good)", Vi: ", %d poison event (bị từ chối vĩnh viễn)"},
	{Key: "drill.write_head", En: "\nstep %d drill — %d clients on %s; MongoDB killed and restarted%s, then SIGTERM to the server mid-load\n\n", Vi: "\ndiễn tập bước %d — %d client vào %s; MongoDB bị giết rồi khởi động lại%s, sau đó SIGTERM gửi tới server giữa lúc có tải\n\n"},
	{Key: "drill.read_start", En: "step 2 drill — %s, %s; a private Redis on %s (server log: %s)\n", Vi: "diễn tập bước 2 — %s, %s; một Redis riêng ở %s (log của server: %s)\n"},
	{Key: "drill.read_head", En: "\nstep 2 drill — %d clients on %s; Redis stopped for %s, then started again (empty)\n\n", Vi: "\ndiễn tập bước 2 — %d client vào %s; Redis bị dừng %s, rồi khởi động lại (trống trơn)\n\n"},
	{Key: "drill.wrote", En: "\n  wrote %s — `make report` draws the drill over time\n", Vi: "\n  đã ghi %s — `make report` vẽ diễn biến của bài diễn tập theo thời gian\n"},
	{Key: "drill.write_failed", En: "the drill failed: persisted %d + dead-lettered %d, accepted %d, other 5xx %d", Vi: "bài diễn tập không qua: ghi xuống %d + vào dead letter %d, nhận %d, 5xx khác %d"},
	{Key: "drill.read_failed", En: "the drill failed: reads answered 5xx while Redis was down", Vi: "bài diễn tập không qua: lúc Redis sập, các lượt đọc bị trả 5xx"},
	{Key: "drill.guard_events", En: "retried events already stored: the _id set at accept time makes them no-ops", Vi: "event được retry mà đã lưu rồi: _id gán lúc nhận biến chúng thành no-op"},
	{Key: "drill.guard_counters", En: "increments of a retried flush already applied: the batch number in each counter makes them no-ops", Vi: "lần cộng của một flush được retry mà đã áp dụng rồi: số batch trong mỗi counter biến chúng thành no-op"},

	// make grade's lines (cmd/workshop/grade.go): the checks it ran, written
	// into the GitHub job summary of a learner's fork (or printed). They follow
	// PEAKLOAD_LANG like every line for a person — English unless the fork sets
	// it (.github/workflows/progress.yml passes the repository variable on) —
	// while results/progress.json, the file a lead collects, keeps English.

	{Key: "grade.head", En: "### Checks run (%s)\n\n%s\n\n", Vi: "### Các check đã chạy (%s)\n\n%s\n\n"},
	{Key: "grade.line", En: "- step %d check %s", Vi: "- check bước %d %s"},
	{Key: "grade.passed", En: "passed", Vi: "đã pass"},
	{Key: "grade.failed", En: "**failed**: %s", Vi: "**không pass**: %s"},
	{Key: "grade.none", En: "- no check run: %s", Vi: "- không chạy check nào: %s"},
	{Key: "grade.all", En: "every exercise step, as asked", Vi: "mọi bước có bài tập, theo yêu cầu"},
	{Key: "grade.asked", En: "the steps asked for", Vi: "các bước được yêu cầu"},
	{Key: "grade.no_base", En: "no commit %s to compare with (a shallow clone? the workflow fetches with fetch-depth: 0)", Vi: "không có commit %s để so (clone nông chăng? workflow fetch với fetch-depth: 0)"},
	{Key: "grade.changed", En: "exercise.go changed since %.12s in %d step(s)", Vi: "exercise.go đã đổi từ %.12s ở %d bước"},
	{Key: "grade.bad_steps", En: "-steps %q: want exercise steps (%v) separated by commas, or all", Vi: "-steps %q: cần các bước có bài tập (%v), cách nhau bằng dấu phẩy, hoặc all"},
	{Key: "grade.check_failed", En: "the check of step %s failed (the job summary says where)", Vi: "check của bước %s không pass (job summary ghi rõ lỗi ở đâu)"},
	{Key: "grade.summary", En: "the job summary", Vi: "job summary"},

	// `workshop help` (cmd/workshop's command table): one line per verb, keyed
	// "help.<verb>", in both languages side by side, so a Vietnamese room's
	// first screen is Vietnamese too (issue 34 §2). "\n" starts an indented
	// continuation line; flags, variables and paths stay as typed.

	{Key: "help.usage", En: "usage: workshop <command> [flags]", Vi: "cách dùng: workshop <lệnh> [flag]"},
	{Key: "help.dev", En: "The maintainer's and the room's preparation (make test, test-latency, docs, mutants, handout):", Vi: "Việc của người bảo trì và phần chuẩn bị phòng học (make test, test-latency, docs, mutants, handout):"},
	{Key: "help.doctor", En: "what is installed / missing, and how to get it", Vi: "máy đã cài gì / thiếu gì, và cài bằng cách nào"},
	{Key: "help.deps", En: "install the missing Debian/Ubuntu packages (root)", Vi: "cài các gói Debian/Ubuntu còn thiếu (cần root)"},
	{Key: "help.up", En: "start postgres, redis, mongo (STACK=auto|native|compose)", Vi: "bật postgres, redis, mongo (STACK=auto|native|compose)"},
	{Key: "help.down", En: "stop what up started", Vi: "tắt những gì up đã bật"},
	{Key: "help.seed", En: "create and load the catalogue (skipped when present)", Vi: "tạo và nạp catalog (bỏ qua nếu đã có)"},
	{Key: "help.bench", En: "run step N's scenario and print the table", Vi: "chạy kịch bản của bước N và in bảng"},
	{Key: "help.step", En: "the lesson's summary, then its check", Vi: "tóm tắt bài học, rồi chạy check"},
	{Key: "help.check", En: "the step's check (SOLUTION=1: on the reference)", Vi: "check của bước (SOLUTION=1: trên lời giải mẫu)"},
	{Key: "help.watch", En: "the check again on every save of the step's files (Ctrl-C stops)", Vi: "chạy lại check mỗi lần lưu file của bước (Ctrl-C để dừng)"},
	{Key: "help.reset", En: "restore the untouched exercise.go (yours kept in .workshop/backup/)", Vi: "trả exercise.go về như lúc đầu (bài của bạn được giữ trong .workshop/backup/)"},
	{Key: "help.run", En: "serve step N on 127.0.0.1:8080 with its services", Vi: "chạy server bước N trên 127.0.0.1:8080 cùng các service của nó"},
	{Key: "help.hint", En: "the next hint of the step's exercise", Vi: "gợi ý tiếp theo cho bài tập của bước"},
	{Key: "help.diff", En: "what the reference adds over the exercise", Vi: "lời giải mẫu thêm gì so với bài tập"},
	{Key: "help.profile", En: "CPU and mutex profiles of step N under load", Vi: "profile CPU và mutex của bước N khi chịu tải"},
	{Key: "help.drill", En: "kill a database (and the server) under load, count what survived (2, 6, 7)", Vi: "giết một database (và cả server) khi đang chịu tải, đếm những gì còn sống sót (2, 6, 7)"},
	{Key: "help.progress", En: "per step: solved?, hints seen, the last bench's verdicts (-format json|markdown, FORMAT=)", Vi: "mỗi bước: xong chưa, đã xem mấy gợi ý, kết luận của lần bench gần nhất (-format json|markdown, FORMAT=)"},
	{Key: "help.grade", En: "CI on a learner's fork: the checks of the steps whose exercise.go changed, then\nthe progress table into the job summary ($GITHUB_STEP_SUMMARY)", Vi: "CI trên fork của học viên: check của các bước có exercise.go bị sửa, rồi\nbảng progress vào job summary ($GITHUB_STEP_SUMMARY)"},
	{Key: "help.probe", En: "the bench's loops, table and results on a service of yours (loopback unless -allow-remote)", Vi: "vòng đo, bảng và file kết quả của bench trên một service của bạn (chỉ loopback, trừ khi -allow-remote)"},
	{Key: "help.audit", En: "the steps' practices (the articles' and ours) checked from outside: one verdict each, with its evidence", Vi: "các practice mà các bước dạy (của bốn bài và của workshop), kiểm tra từ bên ngoài: mỗi practice một kết luận, kèm bằng chứng"},
	{Key: "help.compare", En: "every step's latest result against the articles;\n-a FILE -b FILE (A= B=): two runs of a step side by side\n-dir FOLDER (DIR=): many people's results, a table per step, a row per person", Vi: "kết quả mới nhất của mọi bước so với các bài viết;\n-a FILE -b FILE (A= B=): hai lần chạy của một bước đặt cạnh nhau\n-dir FOLDER (DIR=): kết quả của nhiều người, mỗi bước một bảng, mỗi người một hàng"},
	{Key: "help.report", En: "one HTML page of every chart and claim (results/report/);\n-ref: the reference runs, and the slides' figures", Vi: "một trang HTML với mọi biểu đồ và claim (results/report/);\n-ref: các lần chạy tham chiếu, và các hình của slide"},
	{Key: "help.worker", En: "the live-stats worker alone (PEAKLOAD_POSTGRES_URL)", Vi: "chỉ chạy worker live-stats (PEAKLOAD_POSTGRES_URL)"},
	{Key: "help.latency-proxy", En: "forward -target with -delay added per round trip (LATENCY)", Vi: "chuyển tiếp tới -target, cộng thêm -delay mỗi round trip (LATENCY)"},

	// make probe's lines (cmd/workshop/probe.go, internal/harness/probe): said to a
	// person, never stored. Each names the make variable the README teaches
	// (URL=, METRICS=, PER_REQUEST=, ALLOW_REMOTE=1), not a flag.

	{Key: "probe.usage", En: "usage: make probe URL=http://127.0.0.1:8080/path [REQUESTS=file] [METRICS=url PER_REQUEST='re,re'] [VUS= DURATION= RUNS= CAPACITY=1]", Vi: "cách dùng: make probe URL=http://127.0.0.1:8080/path [REQUESTS=file] [METRICS=url PER_REQUEST='re,re'] [VUS= DURATION= RUNS= CAPACITY=1]"},
	{Key: "probe.start", En: "probe %s (%s): %d VUs, %s per row after a %s warm-up, %d round(s)\n", Vi: "probe %s (%s): %d VUs, mỗi hàng %s sau %s warm-up, %d vòng\n"},
	{Key: "probe.wrote", En: "\nwrote %s\n  drawn by make report; beside another probe: make compare A=<that file> B=%s\n", Vi: "\nđã ghi %s\n  make report sẽ vẽ nó; đặt cạnh một probe khác: make compare A=<file đó> B=%s\n"},

	// make step-N profile's lines (cmd/workshop/profile.go): what it profiles,
	// the titles over pprof's own tables (pprof prints English: it is Go's
	// tool), the two-line summary and where the files are. Commands stay as
	// typed, in both languages.

	{Key: "profile.start", En: "profiling step %d, variant %s (%s): %d s under %d VUs, server on %d CPU(s)…\n", Vi: "đang profile bước %d, biến thể %s (%s): %d s dưới tải của %d VU, server trên %d CPU…\n"},
	{Key: "profile.cpu_title", En: "CPU: where the server's CPU time went", Vi: "CPU: thời gian CPU của server tiêu vào đâu"},
	{Key: "profile.mutex_title", En: "lock contention: who made other requests wait (sync frames hidden, so the waiting is charged to the code holding the lock)", Vi: "tranh chấp lock: ai bắt các request khác phải chờ (frame của sync được ẩn, nên thời gian chờ tính cho đoạn code đang giữ lock)"},
	{Key: "profile.short", En: "\n=== in short (server on %d CPU(s), %d s)\n", Vi: "\n=== tóm lại (server trên %d CPU, %d s)\n"},
	{Key: "profile.cpu_idle", En: "CPU:   no samples (was the server idle?)", Vi: "CPU:   không có sample nào (server ngồi chơi chăng?)"},
	{Key: "profile.cpu_here", En: "here:\n         %s", Vi: "ở đây:\n         %s"},
	{Key: "profile.cpu_outside", En: "outside the workshop's code — the runtime, net/http, the framework, the kernel: the top above says where", Vi: "nằm ngoài code của workshop — runtime, net/http, framework, kernel: bảng top ở trên cho biết chỗ nào"},
	{Key: "profile.cpu", En: "CPU:   %.1f s of CPU in %.1f s = %.2f CPUs busy; %.0f%% of it %s", Vi: "CPU:   %.1f s CPU trong %.1f s = %.2f CPU bận; %.0f%% trong số đó %s"},
	{Key: "profile.locks_none", En: "locks: no request waited on a lock", Vi: "lock: không request nào phải chờ lock"},
	{Key: "profile.lock_here", En: "a lock held here:\n         %s", Vi: "một lock giữ ở đây:\n         %s"},
	{Key: "profile.lock_outside", En: "locks outside the workshop's code (see the top above)", Vi: "các lock nằm ngoài code của workshop (xem bảng top ở trên)"},
	{Key: "profile.locks", En: "locks: requests spent %.1f s waiting for locks in %d s (%.1f requests waiting at any moment); %.0f%% of it on %s", Vi: "lock: các request mất %.1f s chờ lock trong %d s (lúc nào cũng có %.1f request đang chờ); %.0f%% trong số đó là vì %s"},
	{Key: "profile.graph", En: "\ncall graph: %s (open it in a browser; box size = CPU time)\n", Vi: "\ncall graph: %s (mở bằng trình duyệt; ô càng to càng tốn CPU)\n"},
	{Key: "profile.no_graphviz", En: "\nno graphviz for a call graph (`make doctor` says how to get it). Browse the profile, flame graph included, with\n  go tool pprof -http 127.0.0.1:8081 %s %s\n", Vi: "\nkhông có graphviz để vẽ call graph (`make doctor` chỉ cách cài). Xem profile, có cả flame graph, bằng\n  go tool pprof -http 127.0.0.1:8081 %s %s\n"},
	{Key: "profile.files", En: "profiles: %s, %s (open either with go tool pprof -http 127.0.0.1:8081 %s <file>)\n", Vi: "các profile: %s, %s (mở file nào cũng được bằng go tool pprof -http 127.0.0.1:8081 %s <file>)\n"},
	{Key: "profile.no_variant", En: "VARIANT=%s: step %d has no such variant (have %s)", Vi: "VARIANT=%s: bước %d không có biến thể này (chỉ có %s)"},

	// Hints and progress (cmd/workshop/progress.go).
	{Key: "hint.no_exercise", En: "step %d has no exercise, so no hints: read %s/README.md and run `make step-%d bench`\n", Vi: "bước %d không có bài tập nên không có gợi ý: đọc %s/README.vi.md rồi chạy `make step-%d bench`\n"},
	{Key: "hint.none", En: "step %d has no hints yet: the TODO in %s/exercise.go and the README are all there is; `make step-%d diff` shows the reference\n", Vi: "bước %d chưa có gợi ý: chỉ có TODO trong %s/exercise.go và README; `make step-%d diff` cho xem lời giải mẫu\n"},
	{Key: "hint.head", En: "step %d — hint %d of %d:\n", Vi: "bước %d — gợi ý %d/%d:\n"},
	{Key: "hint.last", En: "that was the last hint: `make step-%d diff` shows the reference beside your code\n", Vi: "đó là gợi ý cuối cùng: `make step-%d diff` đặt lời giải mẫu cạnh code của bạn\n"},
	{Key: "progress.header", En: "step\texercise\thints\tlast bench", Vi: "bước\tbài tập\tgợi ý\tlần bench gần nhất"},
	{Key: "progress.to_do", En: "to do", Vi: "chưa làm"},
	{Key: "progress.solved", En: "solved", Vi: "đã xong"},
	{Key: "progress.changed", En: "changed since its check passed", Vi: "đã sửa sau lần check pass"},
	{Key: "progress.hints", En: "%d of %d", Vi: "%d/%d"},
	{Key: "progress.footer", En: "\n(solved = `make step-N check` passed on exercise.go exactly as it is now, now or in an earlier try; kept in .workshop/progress/)\n", Vi: "\n(đã xong = `make step-N check` đã pass trên đúng nội dung exercise.go hiện tại, ở lần này hay một lần trước; lưu trong .workshop/progress/)\n"},
	{Key: "progress.no_bench", En: "none yet (make step-%d bench)", Vi: "chưa có (make step-%d bench)"},
	{Key: "progress.unreadable", En: "unreadable: %v", Vi: "không đọc được: %v"},
	{Key: "progress.yours", En: "your code", Vi: "code của bạn"},
	{Key: "progress.reference", En: "the reference", Vi: "lời giải mẫu"},
	{Key: "progress.the_step", En: "the step", Vi: "của bước"},
	{Key: "progress.date", En: "Jan 2 15:04", Vi: "2/1 15:04"}, // a Go time layout
	{Key: "progress.md_head", En: "### Workshop progress — %s (%.12s)\n\n| step | exercise | hints | last bench |\n|---|---|---|---|\n", Vi: "### Tiến độ workshop — %s (%.12s)\n\n| bước | bài tập | gợi ý | lần bench gần nhất |\n|---|---|---|---|\n"},
	{Key: "progress.md_footnote", En: "\nsolved = `make step-N check` passed on exercise.go exactly as it is now, now or in an earlier try; kept in .workshop/progress/\n", Vi: "\nđã xong = `make step-N check` đã pass trên đúng nội dung exercise.go hiện tại, ở lần này hay một lần trước; lưu trong .workshop/progress/\n"},

	// Reset (cmd/workshop/reset.go).
	{Key: "reset.no_exercise", En: "step %d has no exercise to reset\n", Vi: "bước %d không có bài tập để reset\n"},
	{Key: "reset.untouched", En: "%s is already untouched\n", Vi: "%s vẫn còn nguyên như lúc đầu\n"},
	{Key: "reset.kept", En: "your %s is kept in %s\n", Vi: "bản %s của bạn được giữ lại ở %s\n"},
	{Key: "reset.back", En: "%s is back as shipped (its TODO); `make step-%d check` fails until you solve it again\n", Vi: "%s đã về lại bản gốc (còn TODO); `make step-%d check` sẽ fail cho tới khi bạn giải lại\n"},
	{Key: "reset.modules_back", En: "%s are back as committed: the modules your `go get` added are no longer required (they stay in the module cache, so `go get` works again offline)\n", Vi: "%s đã về lại bản đã commit: các module mà `go get` của bạn thêm vào không còn được require nữa (chúng vẫn nằm trong module cache, nên `go get` lại vẫn chạy được khi không có mạng)\n"},

	// The check (cmd/workshop/check.go).
	{Key: "check.start", En: "step %d check, service-free tests first (go test -short -failfast %s)\n", Vi: "check bước %d, trước hết là các test không cần service (go test -short -failfast %s)\n"},
	{Key: "check.fix_first", En: "(fix this first; `make step-%d watch` re-runs the check on every save)", Vi: "(sửa lỗi này trước; `make step-%d watch` tự chạy lại check mỗi lần bạn lưu file)"},
	{Key: "check.services", En: "they pass; now the %d that need services: %s\n", Vi: "đã pass; giờ tới %d test cần service: %s\n"},
	{Key: "check.services_one", En: "they pass; now the one that needs services: %s\n", Vi: "đã pass; giờ tới test duy nhất cần service: %s\n"},
	{Key: "check.failed", En: "step %d check failed: the first failure is above", Vi: "check bước %d không pass: lỗi đầu tiên ở phía trên"},
	{Key: "check.no_verdict", En: "step %d check gave no verdict: a test above waited on the machine past its bound (see why above); run the check again", Vi: "check bước %d chưa có kết luận: một test ở trên chờ máy quá giới hạn của nó (lý do ở trên); hãy chạy lại check"},
	{Key: "check.passed", En: "step %d check passed\n", Vi: "check bước %d đã pass\n"},
	{Key: "check.failed_short", En: "the check failed before any service was needed", Vi: "check đã fail trước cả khi cần tới service"},
	{Key: "check.skipped", En: "--- SKIP: %s: %s (this test checked nothing in this run)\n", Vi: "--- SKIP: %s: %s (lần chạy này test đó không kiểm tra gì cả)\n"},
	{Key: "check.unfinished", En: "--- FAIL: %s: the test never finished: its watchdog or a crash ended the test binary while it ran (what it said is below)\n", Vi: "--- FAIL: %s: test không chạy xong: watchdog của nó hoặc một lỗi crash đã dừng test binary giữa chừng (những gì nó kịp in ở bên dưới)\n"},

	// Steps, diff, run (cmd/workshop/steps.go).
	{Key: "step.whole_lesson", En: "… the whole lesson: %s\n\n", Vi: "… toàn bộ bài học: %s\n\n"},
	{Key: "step.commands", En: "commands, one per line:\n", Vi: "các lệnh của bước này:\n"},
	{Key: "diff.no_exercise", En: "step %d has no exercise to compare\n", Vi: "bước %d không có bài tập để so sánh\n"},
	{Key: "diff.head", En: "%s/exercise.go (-) against %s (+):\n\n", Vi: "%s/exercise.go (-) so với %s (+):\n\n"},
	{Key: "diff.same", En: "(no difference: your exercise matches the reference)\n", Vi: "(không khác gì: bài của bạn giống hệt lời giải mẫu)\n"},
	{Key: "run.ctrl_c", En: "Ctrl-C stops the server (graceful) and the services this command started\n", Vi: "Ctrl-C dừng server (graceful) và các service mà lệnh này đã bật\n"},

	// make doctor (cmd/workshop/doctor.go).
	{Key: "doctor.go", En: "  ok       %-13s %s (go.mod needs ≥ 1.25: the checks run their timers on testing/synctest)\n", Vi: "  ok       %-13s %s (go.mod cần ≥ 1.25: các check chạy timer trên testing/synctest)\n"},
	{Key: "doctor.no_mongod", En: "           no mongod: FerretDB serves the wire protocol, so absolute write figures differ from MongoDB's;\n           PEAKLOAD_MONGO_BACKEND=postgresql|sqlite picks its storage (default %s; steps/06-buffered-writes/README.md says why)\n", Vi: "           không có mongod: FerretDB đóng vai MongoDB (cùng wire protocol), nên số tuyệt đối của phần ghi khác với MongoDB thật;\n           PEAKLOAD_MONGO_BACKEND=postgresql|sqlite chọn nơi lưu (mặc định %s; lý do ở steps/06-buffered-writes/README.vi.md)\n"},
	{Key: "doctor.pinned", En: "  CPUs:    server pinned to CPU %v (GOMAXPROCS=1), databases on %v, driver on %v\n", Vi: "  CPU:     server ghim vào CPU %v (GOMAXPROCS=1), database trên %v, driver trên %v\n"},
	{Key: "doctor.pinned_wide", En: "           step 8's server gets CPUs %v (GOMAXPROCS=%d): its speed-up is bounded by that count\n", Vi: "           server của bước 8 chạy trên CPU %v (GOMAXPROCS=%d): mức tăng tốc của nó không vượt quá số CPU đó\n"},
	{Key: "doctor.not_pinned", En: "  CPUs:    no pinning here (one CPU, or not Linux): ratios hold, absolute figures are noisier\n", Vi: "  CPU:     máy này không ghim CPU được (một CPU, hoặc không phải Linux): tỉ lệ vẫn đúng, số tuyệt đối nhiễu hơn\n"},
	{Key: "doctor.root", En: "  root:    PostgreSQL runs as the 'postgres' user; missing apt packages are installed on first use (or: make deps)\n", Vi: "  root:    PostgreSQL chạy dưới user 'postgres'; gói apt nào còn thiếu thì lần dùng đầu sẽ tự cài (hoặc: make deps)\n"},
	{Key: "doctor.node", En: "  originals: ORIGINAL=1 measures the sources' own stacks (originals/) beside yours; without them their rows are skipped with a note\n", Vi: "  bản gốc: ORIGINAL=1 đo stack gốc của các bài (originals/) bên cạnh code của bạn; thiếu chúng thì các hàng đó bị bỏ qua, có ghi chú\n"},
	{Key: "doctor.node_ok", En: "           Node.js %s (≥ %d needed): %s\n", Vi: "           Node.js %s (cần ≥ %d): %s\n"},
	{Key: "doctor.node_old", En: "           Node.js %s at %s is older than %d: install a newer one (Debian 12+/Ubuntu 24.04: sudo apt-get install -y nodejs npm)\n", Vi: "           Node.js %s ở %s cũ hơn bản %d: cài bản mới hơn (Debian 12+/Ubuntu 24.04: sudo apt-get install -y nodejs npm)\n"},
	{Key: "doctor.no_node", En: "           no Node.js: make deps (as root), or sudo apt-get install -y nodejs npm\n", Vi: "           không có Node.js: make deps (với quyền root), hoặc sudo apt-get install -y nodejs npm\n"},
	{Key: "doctor.modules", En: "           packages: %s installed (the versions originals/package-lock.json pins)\n", Vi: "           package: đã cài %s (đúng các phiên bản originals/package-lock.json ghim)\n"},
	{Key: "doctor.no_modules", En: "           packages: %s missing — make prefetch-originals (npm ci)\n", Vi: "           package: thiếu %s — make prefetch-originals (npm ci)\n"},
	{Key: "doctor.bun", En: "           Bun %s, from the npm package (article D's Elysia runs on it)\n", Vi: "           Bun %s, lấy từ package npm (Elysia của bài D chạy trên nó)\n"},
	{Key: "doctor.no_bun", En: "           no Bun (article D's Elysia runs on it) — make prefetch-originals installs it with the other packages\n", Vi: "           không có Bun (Elysia của bài D chạy trên nó) — make prefetch-originals cài nó cùng các package khác\n"},
	{Key: "doctor.no_originals", En: "           no originals/package.json above %s: run make from the repository's root\n", Vi: "           không thấy originals/package.json nào phía trên %s: hãy chạy make ở thư mục gốc của repo\n"},
	{Key: "doctor.chromium", En: "  chromium: %s (make handout prints the slide decks to PDF with it)\n", Vi: "  chromium: %s (make handout dùng nó để in slide ra PDF)\n"},
	{Key: "doctor.no_chromium", En: "  chromium: none — only `make handout` needs it: %s\n", Vi: "  chromium: không có — chỉ `make handout` cần tới: %s\n"},
	{Key: "doctor.ports", En: "  ports:   PostgreSQL %d, Redis %d, MongoDB %d on %s (PEAKLOAD_*_PORT to change)\n", Vi: "  cổng:    PostgreSQL %d, Redis %d, MongoDB %d trên %s (đổi bằng PEAKLOAD_*_PORT)\n"},
	{Key: "doctor.catalog", En: "  catalog: %d items; %.0f%% of reads on %d live streams (Zipf s=%.1f); clock ×%.0f\n", Vi: "  catalog: %d item; %.0f%% lượt đọc rơi vào %d stream đang live (Zipf s=%.1f); đồng hồ ×%.0f\n"},
	{Key: "doctor.running", En: "  running: %s (started by the workshop; `make down` stops them)\n", Vi: "  đang chạy: %s (do workshop bật; `make down` tắt chúng)\n"},
	{Key: "doctor.some_missing", En: "%d required tool(s) missing: install them as shown (or, as root on Debian/Ubuntu, `make deps`)\n", Vi: "thiếu %d công cụ bắt buộc: cài theo hướng dẫn ở trên (hoặc, nếu là root trên Debian/Ubuntu, `make deps`)\n"},
	{Key: "doctor.all_here", En: "everything required is here: `make step-1 bench`\n", Vi: "đủ mọi thứ cần thiết: `make step-1 bench`\n"},

	// The stack's messages (internal/harness/stack).
	{Key: "up.psql", En: "PostgreSQL is up; to query it yourself: psql '%s'\n", Vi: "PostgreSQL đã chạy; muốn tự query thì dùng: psql '%s'\n"},

	// The bench command's own lines (cmd/workshop/bench.go).
	{Key: "bench.start", En: "step %d — %s: %d VUs, %s per variant after a %s warm-up, %d round(s) (server log: %s)\n", Vi: "bước %d — %s: %d VUs, %s mỗi biến thể sau %s warm-up, %d vòng (log của server: %s)\n"},
	{Key: "bench.round", En: "round %d of %d\n", Vi: "vòng %d/%d\n"},
	{Key: "bench.wrote", En: "\nwrote %s\n  each run over time: make report; beside another run of the step: make compare A=<that file> B=%s\n", Vi: "\nđã ghi %s\n  xem từng lần chạy theo thời gian: make report; đặt cạnh một lần chạy khác của bước: make compare A=<file đó> B=%s\n"},
	{Key: "bench.unrecorded", En: "\nstep %d has no reference run yet: with SOLUTION=1, copy %s to results/reference/step-%d.json, drop Unrecorded from step %d's entry (internal/harness/course/steps.go), then make agenda STEP=%[1]d (the guide's timing, which make docs needs) and make docs\n", Vi: "\nbước %d chưa có lần chạy tham chiếu: với SOLUTION=1, chép %s vào results/reference/step-%d.json, bỏ Unrecorded khỏi mục của bước %d (internal/harness/course/steps.go), rồi make agenda STEP=%[1]d (thời lượng cho hướng dẫn người đứng lớp, make docs cần nó) và make docs\n"},
	{Key: "config.bad_variable", En: "%s=%s: %v", Vi: "%s=%s: %v"},
	{Key: "build.compiling", En: "compiling %s into %s (the first time takes a while)…\n", Vi: "đang compile %s vào %s (lần đầu hơi lâu)…\n"},
	{Key: "build.compiled", En: "compiled %s in %.0f s\n", Vi: "đã compile %s trong %.0f s\n"},
	{Key: "doctor.head", En: "peakload doctor — %s/%s, %d CPUs, %s\n\n", Vi: "peakload doctor — %s/%s, %d CPU, %s\n\n"},
	{Key: "doctor.stack", En: "  stack:   STACK=%s → %s (%s)\n", Vi: "  stack:   STACK=%s → %s (%s)\n"},
	{Key: "doctor.engine_up", En: "a Docker engine answers", Vi: "Docker engine có trả lời"},
	{Key: "doctor.engine_down", En: "no Docker engine answers", Vi: "Docker engine không trả lời"},

	// The stack's errors, and what each tool is for (internal/harness/stack).
	{Key: "doctor.ok", En: "  ok       %-13s %s\n", Vi: "  ok       %-13s %s\n"},
	{Key: "doctor.mongo", En: "  MongoDB: %s\n", Vi: "  MongoDB: %s\n"},
	{Key: "deps.nothing", En: "nothing to install\n", Vi: "không có gì cần cài\n"},
	{Key: "deps.yourself", En: "install these yourself (needs root and apt-get): sudo apt-get install -y %s   — on macOS see `make doctor`", Vi: "bạn tự cài các gói này (cần root và apt-get): sudo apt-get install -y %s   — trên macOS xem `make doctor`"},
	{Key: "deps.installing", En: "installing: %s\n", Vi: "đang cài: %s\n"},
	{Key: "deps.then_prefetch", En: "Node.js and npm are installed; `make prefetch-originals` installs the originals' packages (ORIGINAL=1)\n", Vi: "đã cài Node.js và npm; `make prefetch-originals` cài các package của bản gốc (ORIGINAL=1)\n"},

	// make compare (cmd/workshop/compare.go, internal/harness/comparison).
	{Key: "compare.need_both", En: "compare two runs with both A=<results file> and B=<results file> (e.g. A=results/reference/step-2.json B=results/step-2/latest.json)", Vi: "muốn so hai lần chạy thì cần cả A=<file kết quả> và B=<file kết quả> (ví dụ A=results/reference/step-2.json B=results/step-2/latest.json)"},
	{Key: "compare.other_step", En: "A is a run of step %d, B of step %d: compare two runs of one step", Vi: "A là một lần chạy của bước %d, B của bước %d: chỉ so hai lần chạy của cùng một bước"},
	{Key: "compare.not_results", En: "%s is not a results file", Vi: "%s không phải file kết quả"},
	{Key: "compare.no_runs", En: "%s has no runs: a results file is results/step-N/<time>.json or results/reference/step-N.json", Vi: "%s không có lần chạy nào: file kết quả là results/step-N/<thời điểm>.json hoặc results/reference/step-N.json"},
	{Key: "compare.latest_header", En: "step\tclaim\tverdict\tmeasured\twhen", Vi: "bước\tclaim\tkết luận\tđo được\tlúc"},
	{Key: "compare.no_result", En: "%d %s\t-\tno result\tmake step-%d bench\t\n", Vi: "%d %s\t-\tchưa có kết quả\tmake step-%d bench\t\n"},
	{Key: "err.step", En: "step %d", Vi: "bước %d"},

	// make compare DIR=<folder>: a lead's folder, one table per step, one
	// row per person (cmd/workshop/compare.go, internal/harness/comparison/folder.go).
	{Key: "compare.folder_empty", En: "%s holds no results files (results/step-N/*.json, one subfolder per person)", Vi: "%s không chứa file kết quả nào (results/step-N/*.json, mỗi người một thư mục con)"},
	{Key: "compare.folder_step", En: "step %d — %s", Vi: "bước %d — %s"},
	{Key: "compare.folder_head", En: "\n%s: %d run(s)\n", Vi: "\n%s: %d lần chạy\n"},
	{Key: "compare.folder_legend", En: "\n(✓ reproduced, ✗ not, – not measured; each claim's tolerance is in its step's README; a person is the results' \"who\", else the first folder under %s)\n", Vi: "\n(✓ tái hiện được, ✗ không, – chưa đo; dung sai của từng claim nằm trong README của bước; mỗi người là trường \"who\" trong file kết quả, không có thì là thư mục đầu tiên dưới %s)\n"},
	{Key: "compare.progress_head", En: "progress: one row per person (make progress FORMAT=json, or the CI artifact)\n", Vi: "tiến độ: mỗi người một hàng (make progress FORMAT=json, hoặc artifact của CI)\n"},
	{Key: "compare.progress_header", En: "person\tcommit\twhen\tsolved\tto do", Vi: "người\tcommit\tlúc\tđã xong\tchưa làm"},
	{Key: "progress.bad_format", En: "FORMAT=%q: want text, json or markdown", Vi: "FORMAT=%q: chỉ nhận text, json hoặc markdown"},
}

func init() { messages.Add(texts) }
