package stack

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
	{Key: "stack.no_pid", En: "no pid yet", Vi: "chưa có pid"},

	// The stack's messages (internal/harness/stack).
	{Key: "stack.port_taken", En: "port %d on %s is already taken by another program, not the workshop's %s; stop it, or pick another port with PEAKLOAD_%s_PORT", Vi: "cổng %d trên %s đang bị một chương trình khác chiếm, không phải %s của workshop; tắt chương trình đó, hoặc chọn cổng khác bằng PEAKLOAD_%s_PORT"},
	{Key: "stack.port_taken_compose", En: "port %d on %s is already taken by another program; stop it, or pick another port with PEAKLOAD_%s_PORT", Vi: "cổng %d trên %s đang bị một chương trình khác chiếm; tắt chương trình đó, hoặc chọn cổng khác bằng PEAKLOAD_%s_PORT"},
	{Key: "stack.started", En: "started %s on %s:%d (%s)", Vi: "đã bật %s trên %s:%d (%s)"},
	{Key: "stack.stopped", En: "stopped %s", Vi: "đã tắt %s"},
	{Key: "stack.compiling", En: "compiling the MongoDB stand-in (FerretDB, cmd/mongo) into %s: 1–3 minutes the first time, once", Vi: "đang compile bản thay thế MongoDB (FerretDB, cmd/mongo) vào %s: lần đầu mất 1–3 phút, chỉ một lần"},
	{Key: "stack.still_compiling", En: "  … still compiling FerretDB (%.0f s)", Vi: "  … vẫn đang compile FerretDB (%.0f s)"},
	{Key: "stack.compiled", En: "compiled FerretDB in %.0f s", Vi: "đã compile FerretDB trong %.0f s"},
	{Key: "stack.not_ready", En: "%s did not become ready within %s", Vi: "%s chưa sẵn sàng sau %s"},
	{Key: "stack.installing", En: "%s is missing: installing apt package %s", Vi: "thiếu %s: đang cài gói apt %s"},
	{Key: "stack.not_installed", En: "%s is not installed (%s). Install it: %s", Vi: "chưa cài %s (%s). Cài bằng: %s"},

	// The bench command's own lines (cmd/workshop/bench.go).
	{Key: "config.bad_backend", En: "PEAKLOAD_MONGO_BACKEND=%q: want postgresql or sqlite", Vi: "PEAKLOAD_MONGO_BACKEND=%q: cần postgresql hoặc sqlite"},

	// The stack's errors, and what each tool is for (internal/harness/stack).
	{Key: "stack.no_postgres_user", En: "running as root, PostgreSQL must run as the 'postgres' user, which does not exist (install the postgresql package, or run as a normal user)", Vi: "đang chạy bằng root, nên PostgreSQL phải chạy dưới user 'postgres', mà user này chưa có (cài gói postgresql, hoặc chạy bằng user thường)"},
	{Key: "stack.bad_backend", En: "PEAKLOAD_MONGO_BACKEND=%q: want postgresql or sqlite", Vi: "PEAKLOAD_MONGO_BACKEND=%q: chỉ nhận postgresql hoặc sqlite"},
	{Key: "stack.ferret_database", En: "FerretDB's database on PostgreSQL (is PostgreSQL up? `make up`)", Vi: "database của FerretDB trên PostgreSQL (PostgreSQL đã chạy chưa? `make up`)"},
	{Key: "stack.mongod_local", En: "mongod (local binary)", Vi: "mongod (binary trên máy)"},
	{Key: "stack.no_backend", En: "none: PEAKLOAD_MONGO_BACKEND=%q is neither postgresql nor sqlite", Vi: "không có: PEAKLOAD_MONGO_BACKEND=%q không phải postgresql cũng không phải sqlite"},
	{Key: "stack.ferret_on", En: "FerretDB 1.24 on %s", Vi: "FerretDB 1.24 trên %s"},
	{Key: "stack.bad_kind", En: "unknown STACK=%q (want auto, native or compose)", Vi: "STACK=%q không hợp lệ (chỉ nhận auto, native hoặc compose)"},
	{Key: "stack.start_failed", En: "start %s (%s)", Vi: "không bật được %s (%s)"},
	{Key: "tool.initdb", En: "PostgreSQL for the read path (native stack)", Vi: "PostgreSQL cho đường đọc (stack native)"},
	{Key: "tool.pg_ctl", En: "starts/stops the private PostgreSQL", Vi: "bật/tắt PostgreSQL riêng của workshop"},
	{Key: "tool.redis-server", En: "Redis for the cache steps (native stack)", Vi: "Redis cho các bước cache (stack native)"},
	{Key: "tool.haproxy", En: "the load balancer in front of step 10's replicas", Vi: "load balancer đứng trước các replica của bước 10"},
	{Key: "tool.wrk", En: "reference load tool: step 0 compares our driver with it", Vi: "công cụ tạo tải để đối chiếu: bước 0 so driver của workshop với nó"},
	{Key: "tool.mongod", En: "real MongoDB; without it the embedded FerretDB speaks the wire protocol", Vi: "MongoDB thật; không có thì FerretDB nhúng sẵn sẽ đóng vai MongoDB (cùng wire protocol)"},
	{Key: "tool.dot", En: "draws pprof call graphs (step 8); pprof's web UI works without it", Vi: "vẽ call graph của pprof (bước 8); web UI của pprof vẫn chạy được khi không có nó"},
	{Key: "tool.k6", En: "runs k6/*.js (TOOL=k6); see https://grafana.com/docs/k6/latest/set-up/install-k6/", Vi: "chạy k6/*.js (TOOL=k6); xem https://grafana.com/docs/k6/latest/set-up/install-k6/"},
	{Key: "tool.docker", En: "STACK=compose (needs a running engine)", Vi: "cho STACK=compose (cần Docker engine đang chạy)"},
	{Key: "tool.node", En: "runs the sources' own stacks (ORIGINAL=1: Fastify, Express, Koa; Node ≥ 18) and syntax-checks the k6 scripts", Vi: "chạy stack gốc của các bài (ORIGINAL=1: Fastify, Express, Koa; Node ≥ 18) và kiểm tra cú pháp các script k6"},
	{Key: "tool.npm", En: "installs the originals' pinned packages (make prefetch-originals)", Vi: "cài các package đã ghim phiên bản của bản gốc (make prefetch-originals)"},
	{Key: "tool.not_packaged", En: "not packaged here; optional", Vi: "không có gói cài sẵn ở đây; không bắt buộc"},
	{Key: "tool.not_found", En: "%s not found", Vi: "không tìm thấy %s"},

	// Why a stack was chosen (internal/harness/stack: Config.Choice).
	{Key: "stack.why_given", En: "STACK=given: the databases were started by someone else (the Compose bench profile's containers); waited for, never started or stopped", Vi: "STACK=given: database do người khác bật sẵn (các container của profile bench trong Compose); chỉ chờ chúng, không bao giờ bật hay tắt"},
	{Key: "stack.why_up", En: "STACK=auto, and the %s stack is already up (make down to change)", Vi: "STACK=auto, và stack %s đang chạy sẵn (muốn đổi thì make down)"},
	{Key: "stack.why_native", En: "STACK=auto: PostgreSQL and Redis are installed here, so they run natively (STACK=compose for containers)", Vi: "STACK=auto: máy này đã cài PostgreSQL và Redis nên chạy native (muốn dùng container thì STACK=compose)"},
	{Key: "stack.why_compose", En: "STACK=auto: no native PostgreSQL/Redis here and a Docker engine answers, so the databases run in containers; their round trips cross Docker's proxy (and Docker Desktop's VM): absolute figures differ from a native run, ratios and verdicts should not (STACK=native after `make deps` to compare)", Vi: "STACK=auto: máy này không có PostgreSQL/Redis native mà có Docker engine trả lời, nên database chạy trong container; round trip của chúng đi qua proxy của Docker (và VM của Docker Desktop): số tuyệt đối khác với khi chạy native, còn tỉ lệ và kết luận thì không nên khác (muốn so thì make deps rồi STACK=native)"},
	{Key: "stack.why_no_docker", En: "STACK=auto: no Docker engine answers, so the native stack is used (missing binaries are installed or named)", Vi: "STACK=auto: không có Docker engine nào trả lời nên dùng stack native (binary nào còn thiếu thì tự cài, hoặc báo tên)"},
}

func init() { messages.Add(texts) }
