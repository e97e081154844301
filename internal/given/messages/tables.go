package messages

// The extra tables some steps print after the bench table (result.Table):
// their titles, column headers, word cells and notes. A step builds its
// table in English (English.T, English.Words), so the results JSON and the
// README's generated regions keep one language; result.Print says each
// string again in the run's language through Restate, which finds the key
// back from the English. Both languages sit side by side here, one key a
// line, so a translator reads the pair. Figures stay as the English wrote
// them (docs/vi/glossary.md: the CLI writes numbers one way).
// Data table: English beside Vietnamese, one key a line, so a translator
// reads the pair; add puts it into both catalogues.
var tableWords = []line{
	// Columns several tables share.
	{"table.col.variant", "variant", "biến thể"},
	{"table.col.tool", "tool", "công cụ"},
	{"table.col.mean_ms", "mean ms", "ms trung bình"},
	{"table.col.db_q", "DB q/req", "DB q/req"},
	{"table.col.rps", "req/s", "req/s"},
	{"table.col.scheduled", "scheduled req/s", "req/s theo lịch"},
	{"table.col.achieved", "achieved req/s", "req/s đạt được"},
	{"table.col.missed", "missed schedule", "trễ lịch"},

	// make compare A=… B=…: the figures compared (internal/harness/comparison).
	{"table.fig.db", "DB queries / request", "DB query / request"},
	{"table.fig.redis", "Redis bytes / request", "byte Redis / request"},
	{"table.fig.cpu", "server CPU µs / request", "µs CPU của server / request"},
	{"table.fig.received", "bytes received / request", "byte nhận về / request"},

	// Step 0: the shell, layer by layer (internal/harness/scenario/step00.go).
	{"table.shell.title", "the shell, layer by layer: GET /empty, each layer its own server process on the pinned CPU",
		"cái vỏ server, từng lớp một: GET /empty, mỗi lớp là một process server riêng trên CPU đã ghim"},
	{"table.shell.layer", "layer", "lớp"},
	{"table.shell.adds", "adds", "thêm vào"},
	{"table.shell.vs", "capacity ÷ timeouts'", "capacity ÷ lớp timeouts"},
	{"table.shell.bare", "echo, the route, nothing else", "echo và route, không gì khác"},
	{"table.shell.timeouts", "+ read-header/read/write/idle timeouts", "+ timeout read-header/read/write/idle"},
	{"table.shell.guards", "+ panic recovery, body limit", "+ bắt panic, giới hạn body"},
	{"table.shell.full", "+ response counting (/metrics)", "+ đếm response (/metrics)"},
	{"table.shell.note_us", "server µs/req = the server process's CPU time (user + kernel) ÷ requests: 1e6 ÷ it is what the layer could serve on this CPU;",
		"server µs/req = thời gian CPU của process server (user + kernel) ÷ số request: 1e6 ÷ con số đó là số request mỗi giây lớp ấy phục vụ nổi trên CPU này;"},
	{"table.shell.note_vs", "capacity ÷ timeouts' = the timeouts layer's µs ÷ this layer's (1.00 = free; claim S0 wants the full shell ≥ 0.95)",
		"capacity ÷ lớp timeouts = µs của lớp timeouts ÷ µs của lớp này (1.00 = không tốn gì; claim S0 đòi vỏ đầy đủ ≥ 0.95)"},

	// The open loop and the capacity search (cmd/workshop/capacity.go, internal/harness/load).
	{"table.arrival.title", "open loop: requests sent on a schedule, latency from each one's due time",
		"vòng hở: request gửi theo lịch, latency tính từ lúc lẽ ra phải gửi"},
	{"table.arrival.not_sent", "not sent", "không gửi được"},
	{"table.arrival.in_flight", "in flight", "đang xử lý"},
	{"table.arrival.note", "missed schedule = due requests no connection was free to send within %s (sent late, timed from when they were due); not sent = still waiting when the window's grace ran out",
		"trễ lịch = các request đã đến hạn mà không connection nào rảnh để gửi trong vòng %s (gửi muộn, tính giờ từ lúc đến hạn); không gửi được = vẫn còn chờ khi cửa sổ đo đã hết thời gian gia hạn"},
	{"table.capacity.title", "capacity: the highest arrival rate served with p99 ≤ %.0f ms (open loop), beside the closed loop's req/s",
		"capacity: tốc độ request đến cao nhất mà server còn phục vụ được với p99 ≤ %.0f ms (vòng hở), đặt cạnh req/s của vòng kín"},
	{"table.capacity.closed", "closed-loop req/s", "req/s vòng kín"},
	{"table.capacity.closed_p99", "closed p99 ms", "p99 ms vòng kín"},
	{"table.capacity.ratio", "capacity ÷ closed", "capacity ÷ vòng kín"},
	{"table.capacity.its_p99", "its p99 ms", "p99 ms tại đó"},
	{"table.capacity.failed_at", "failed at req/s", "không đạt ở req/s"},
	{"table.capacity.probes", "probes", "số lần dò"},
	{"table.capacity.none", "none", "chưa có"},
	{"table.capacity.note_closed", "closed loop: VUs users who each wait for their answer — by Little's law its req/s = users ÷ (latency + think time), and while the server stalls",
		"vòng kín: VUs user, user nào cũng chờ câu trả lời của mình — theo định luật Little, req/s ở đó = số user ÷ (latency + think time), và khi server khựng lại"},
	{"table.capacity.note_omission", "nobody sends, so its percentiles leave out the queue (coordinated omission); capacity: requests arrive on a schedule whatever the answers do,",
		"thì không ai gửi gì, nên các percentile của nó bỏ sót hàng đợi (coordinated omission); capacity: request đến theo lịch, mặc kệ các câu trả lời,"},
	{"table.capacity.note_open", "each timed from when it was due — the rate an audience may send before the wait passes the bound",
		"mỗi request tính giờ từ lúc đến hạn — tức tốc độ mà đám đông người dùng có thể gửi trước khi thời gian chờ vượt ngưỡng p99"},
	{"table.probes.title", "the capacity probes, in order", "các lần dò capacity, theo thứ tự"},
	{"table.probes.served", "served", "phục vụ được"},
	{"table.probes.why", "why", "lý do"},
	{"table.probes.yes", "yes", "có"},
	{"table.probes.no", "no", "không"},
	{"table.why.not_open", "not an open-loop run", "không phải lần chạy vòng hở"},
	{"table.why.not_sent", "never sent: %d requests (every connection busy)", "không gửi được: %d request (mọi connection đều bận)"},
	{"table.why.errors", "%d errors", "%d lỗi"},
	{"table.why.achieved", "achieved %.0f of %.0f req/s", "chỉ đạt %.0f trên %.0f req/s"},
	{"table.why.driver_behind", "the driver fell behind (%.0f%% sent late, server %.0f%% busy)",
		"driver bị tụt lại (%.0f%% gửi muộn, server bận %.0f%%)"},

	// Step 6: the author's rows beside ours (internal/harness/scenario/step06_repo.go).
	{"table.writes.title", "The author's README rows (minhpq331/write-heavy-application at %s, Express + MongoDB, 100k events) beside ours — author / ours",
		"Các hàng trong README của tác giả (minhpq331/write-heavy-application ở commit %s, Express + MongoDB, 100k event) đặt cạnh số của workshop — tác giả / workshop"},
	{"table.writes.row", "author's row", "hàng của tác giả"},
	{"table.writes.persisted", "persisted/s", "ghi xuống/s"},
	{"table.writes.vs_sync", "persisted ÷ sync", "ghi xuống ÷ sync"},
	{"table.writes.additional", "additional s", "additional time s"},
	{"table.writes.cpu_share", "DB CPU, % of a core", "CPU của DB, % một core"},
	{"table.writes.cpu_us", "DB CPU µs/event", "CPU của DB µs/event"},
	{"table.writes.note_raw", "Raw rows have no HTTP, so req/s is inserts/s, and persisted ÷ sync is ÷ raw-seq (the author's row 3).",
		"Các hàng raw không qua HTTP, nên req/s ở đó là số insert mỗi giây, và ghi xuống ÷ sync là ÷ raw-seq (hàng 3 của tác giả)."},
	{"table.writes.note_cpu", "The author's persisted ÷ sync and DB CPU per event are our arithmetic, the latter \"Mongo CPU\" × (HTTP + additional time) ÷ 100 000 events (group: × its additional time, when it inserts). Ours: FerretDB and PostgreSQL's CPU from /proc over the load and the settle, ÷ events persisted.",
		"Ghi xuống ÷ sync và CPU của DB mỗi event phía tác giả là phép tính của workshop, cái sau là \"Mongo CPU\" × (HTTP + additional time) ÷ 100 000 event (group: × additional time của nó, lúc nó insert). Phía workshop: CPU của FerretDB và PostgreSQL đọc từ /proc trong lúc tải và lúc chờ ghi nốt, ÷ số event đã ghi xuống."},

	// Step 9: frameworks, the pool, the kernel (internal/harness/scenario/step09.go).
	{"table.frameworks.title", "frameworks, each its own process on one CPU (article D's table; × echo = req/s ÷ echo's on the same endpoint)",
		"các framework, mỗi cái một process riêng trên một CPU (bảng của bài D; × echo = req/s ÷ req/s của echo trên cùng endpoint)"},
	{"table.frameworks.note_cpu", "CPU = the server's CPU time (user + kernel) ÷ wall time on its one CPU: under ~90% it waited — for PostgreSQL, or for a driver",
		"CPU = thời gian CPU của server (user + kernel) ÷ thời gian thực, trên CPU duy nhất của nó: dưới ~90% là nó đã phải chờ — chờ PostgreSQL, hoặc chờ một driver"},
	{"table.frameworks.note_us", "that could not keep up; compare CPU µs/req then: 1e6 ÷ µs/req is what that framework could serve on this CPU",
		"không theo kịp; khi đó hãy so CPU µs/req: 1e6 ÷ µs/req là số request mỗi giây framework đó phục vụ nổi trên CPU này"},
	{"table.frameworks.note_vs", "× echo \"–\": that row's or echo's req/s is not the server's, so no ratio is given (the bench judges none there): other processes took ≥ %.0f%% of its CPUs, the load tool limited it, or, on empty or validate, its server used < %.0f%% of its CPU; compare CPU µs/req",
		"× echo \"–\": req/s của hàng đó hoặc của echo không phải của server, nên không đưa tỉ số (bench cũng không xét ở đó): các process khác chiếm ≥ %.0f%% số CPU của nó, công cụ tạo tải đã tự giới hạn nó, hoặc, ở empty hay validate, server của nó dùng < %.0f%% CPU; khi đó hãy đối chiếu CPU µs/req"},
	{"table.pool.title", "PostgreSQL pool size (echo, GET /items/:id)", "kích thước pool PostgreSQL (echo, GET /items/:id)"},
	{"table.pool.connections", "connections", "số kết nối"},
	{"table.kernel.title", "kernel settings around article D's tuning, as they are on this machine (read only: see the README for what they do)",
		"các thiết lập kernel quanh phần tinh chỉnh của bài D, giá trị trên máy này (chỉ đọc: README giải thích từng thiết lập làm gì)"},
	{"table.kernel.setting", "setting", "thiết lập"},
	{"table.kernel.here", "here", "máy này"},
	{"table.kernel.article", "article D", "bài D"},
	{"table.kernel.not_given", "(not given)", "(bài không nêu)"},
	{"table.kernel.not_named", "(not in the article)", "(bài không nhắc tới)"},
	{"table.kernel.larger", "larger", "lớn hơn"},
	{"table.kernel.open_files", "open files (ulimit -n)", "số file được mở (ulimit -n)"},

	// Step 10: replicas, the stop, the stale window (internal/harness/scenario/step10.go).
	{"table.replicas.title", "replicas behind HAProxy (counters summed over the replicas' /metrics)",
		"các replica sau HAProxy (bộ đếm cộng dồn từ /metrics của mọi replica)"},
	{"table.replicas.replicas", "replicas", "số replica"},
	{"table.replicas.memory_hit", "memory hit", "hit bộ nhớ"},
	{"table.replicas.redis_gets", "Redis GETs/req", "Redis GET/req"},
	{"table.replicas.loads", "Redis loads/TTL", "load từ Redis/TTL"},
	{"table.replicas.copies", "copies/item", "bản sao/item"},
	{"table.replicas.shares", "requests per replica", "request mỗi replica"},
	{"table.replicas.rss", "RSS/replica MB", "RSS mỗi replica MB"},
	{"table.replicas.cold_start", "cold start ms", "khởi động ms"},
	{"table.replicas.single", "%d (no balancer)", "%d (không có balancer)"},
	{"table.replicas.note_copies", "Redis loads/TTL: items loaded from Redis into memory per burst-TTL window, all replicas together; copies/item: those loads ÷ the distinct items that many requests touch (what one process would load) — ~1 for one process or hash routing, up to N for round-robin",
		"load từ Redis/TTL: số item được load từ Redis vào bộ nhớ trong mỗi khoảng burst TTL, cộng cả các replica; bản sao/item: số lần load đó ÷ số item khác nhau mà ngần ấy request chạm tới (số mà một process sẽ load) — ~1 với một process hoặc khi chia theo hash, tới N với round-robin"},
	{"table.replicas.note_shares", "requests per replica: each replica's own request counter — the balancer is in the path; req/s cannot grow with N here (every replica shares the server's CPU)",
		"request mỗi replica: bộ đếm request của chính từng replica — balancer nằm trên đường đi; ở đây req/s không thể tăng theo N (mọi replica dùng chung CPU của server)"},
	{"table.stop.title", "one replica stopped a third of the way in (%s)", "một replica bị dừng khi hàng chạy được một phần ba (%s)"},
	{"table.stop.window", "window", "khoảng"},
	{"table.stop.hit_ratio", "memory hit ratio", "hit ratio bộ nhớ"},
	{"table.stop.before", "before the stop", "trước khi dừng"},
	{"table.stop.after", "2 burst TTLs after", "2 burst TTL ngay sau đó"},
	{"table.stop.rest", "the rest", "phần còn lại"},
	{"table.stop.note_window", "the window after the stop starts when the replica was told to stop (SIGTERM; it took %.0f ms to exit) and ends two burst TTLs after it exited",
		"khoảng ngay sau khi dừng bắt đầu lúc replica nhận lệnh dừng (SIGTERM; nó mất %.0f ms để thoát) và kết thúc hai burst TTL sau khi nó đã thoát"},
	{"table.stop.note_errors", "errors during the whole row: %d (HAProxy retries a request that found the replica gone on another one)",
		"số lỗi trong suốt hàng này: %d (request nào gặp replica đã tắt thì HAProxy gửi lại sang một replica khác)"},
	{"table.stale.title", "the stale window: how long after a change each replica served the old ETag",
		"khoảng stale: sau một thay đổi, mỗi replica còn phục vụ ETag cũ bao lâu"},
	{"table.stale.changes", "changes", "số thay đổi"},
	{"table.stale.max", "max ms (stale-pubsub: the listening replicas)", "max ms (stale-pubsub: các replica đang lắng nghe)"},
	{"table.stale.missed", "replica that missed them: max ms", "replica bị lỡ thông báo: max ms"},
	{"table.stale.forgets", "forgets per change", "lần quên mỗi thay đổi"},
}

func init() { add(tableWords) }

// Words is each key's message in language l: a table's header, built in
// English (English.Words) and said again at print time.
func (l Lang) Words(keys ...string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = l.T(k)
	}
	return out
}

// Words is each key's message in the run's language.
func Words(keys ...string) []string { return current.Words(keys...) }
