package result

import "github.com/peakload/workshop/internal/given/messages"

// Step 6's note on a write row, in parts: the bulk baseline's ratio and the
// database's CPU are there only when measured.
const (
	writeRow    = "%-5s total %.1f s (load %.1f s + additional %.1f s); answered %.2f× the empty POST; persisted %.2f× raw one-at-a-time, %.2f× raw ×100"
	writeBulk   = ", %.2f× raw InsertMany"
	writeCPU    = "; database CPU %.0f µs per event (%.0f %% of a core; the author's row %d: %.0f µs, our arithmetic)"
	viWriteRow  = "%-5s tổng %.1f s (tải %.1f s + additional time %.1f s); trả lời bằng %.2f× empty POST; ghi xuống bằng %.2f× raw từng cái một, %.2f× raw ×100"
	viWriteBulk = ", %.2f× raw InsertMany"
	viWriteCPU  = "; CPU của database %.0f µs mỗi event (%.0f %% một core; hàng %d của tác giả: %.0f µs, phép tính của workshop)"
)

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// make audit's table (internal/harness/audit): its title, headers, practices,
	// verdicts and evidence. A finding is written in English (English.T), so
	// results/audit/*.json keeps one language; the CLI says it again at print
	// time through Restate, which finds each key back from the English, the
	// figures carried over. Evidence joins its sentences with "; ": each is a
	// key of its own, and Restate says them one by one.

	{Key: "table.audit.title", En: "audit: the articles' practices and ours, checked from outside", Vi: "audit: các practice của bốn bài và của workshop, kiểm tra từ bên ngoài"},
	{Key: "table.audit.practice", En: "practice", Vi: "practice"},
	{Key: "table.audit.verdict", En: "verdict", Vi: "kết luận"},
	{Key: "table.audit.evidence", En: "evidence", Vi: "bằng chứng"},
	{Key: "table.audit.step", En: "step", Vi: "bước"},
	{Key: "table.audit.note", En: "✓ the practice is there, ✗ missing, – not judged (the evidence says why), info: reported, not judged; each step's README teaches its practice", Vi: "✓ đã có practice đó, ✗ còn thiếu, – không xét (bằng chứng nói lý do), thông tin: chỉ báo cáo, không xét; README của mỗi bước dạy practice của bước đó"},

	// The practices (docs/vi/practices.md names them the same way).
	{Key: "table.audit.p_cold", En: "a cold key: %d concurrent identical requests coalesce", Vi: "key nguội: %d request giống hệt nhau cùng lúc được gộp lại"},
	{Key: "table.audit.p_etag", En: "ETag / 304 on a repeated GET", Vi: "ETag / 304 cho một GET lặp lại"},
	{Key: "table.audit.p_weak", En: "ETag: the weak form of the tag matches", Vi: "ETag: dạng weak của tag vẫn khớp"},
	{Key: "table.audit.p_body", En: "oversized body (%d MiB) refused with 413", Vi: "body quá lớn (%d MiB) bị từ chối bằng 413"},
	{Key: "table.audit.p_json", En: "malformed JSON gets a 4xx with a JSON error", Vi: "JSON hỏng được trả lời bằng 4xx kèm lỗi JSON"},
	{Key: "table.audit.p_keepalive", En: "keep-alive honoured", Vi: "giữ kết nối (keep-alive)"},
	{Key: "table.audit.p_slowloris", En: "a slowloris connection closed within %s", Vi: "kết nối slowloris bị đóng trong vòng %s"},
	{Key: "table.audit.p_shed", En: "under a burst: sheds load (503 + Retry-After), latency bounded", Vi: "khi có burst: gạt bớt tải (503 + Retry-After), latency có giới hạn"},
	{Key: "table.audit.p_recover", En: "after a burst: p99 recovers", Vi: "sau burst: p99 hồi lại"},
	{Key: "table.audit.p_compression", En: "compression (reported, not judged)", Vi: "header nén (chỉ báo cáo, không xét)"},
	{Key: "table.audit.p_caching", En: "caching headers (reported, not judged)", Vi: "header cache (chỉ báo cáo, không xét)"},

	// The steps that teach them (those named by their directories alone print as they are).
	{Key: "table.audit.s_shell", En: "0 ceilings (the shell)", Vi: "0 mức trần (vỏ server)"},
	{Key: "table.audit.s_burst", En: "4–6 (singleflight, burst cache, buffered writes: 503 + Retry-After)", Vi: "4–6 (singleflight, burst cache, ghi qua buffer: 503 + Retry-After)"},
	{Key: "table.audit.s_compression", En: "— (docs/scaling.md: a CDN in front)", Vi: "— (docs/vi/scaling.md: một CDN đứng trước)"},

	// Verdicts ("✓", "✗", "–" are marks: said in no language).
	{Key: "table.audit.not_judged", En: "not judged", Vi: "không xét"},
	{Key: "table.audit.coalesced", En: "coalesced ✓ (%.0f for %d)", Vi: "gộp được ✓ (%.0f cho %d)"},
	{Key: "table.audit.stampede", En: "stampede: %.0f queries for %d", Vi: "stampede: %.0f query cho %d"},
	{Key: "table.audit.no_304", En: "no 304", Vi: "không có 304"},
	{Key: "table.audit.any_tag", En: "304 to any tag", Vi: "304 cho mọi tag"},
	{Key: "table.audit.weak_missed", En: "weak tag not matched", Vi: "tag weak không khớp"},
	{Key: "table.audit.weak_match", En: "weak match ✓", Vi: "khớp dạng weak ✓"},
	{Key: "table.audit.hangs", En: "hangs", Vi: "treo"},
	{Key: "table.audit.not_413", En: "%d, not 413", Vi: "%d, không phải 413"},
	{Key: "table.audit.json_ok", En: "%d JSON ✓", Vi: "%d JSON ✓"},
	{Key: "table.audit.not_json", En: "%d, body not JSON", Vi: "%d, body không phải JSON"},
	{Key: "table.audit.not_4xx", En: "%d, not a 4xx", Vi: "%d, không phải 4xx"},
	{Key: "table.audit.closed", En: "closed", Vi: "bị đóng"},
	{Key: "table.audit.kept", En: "kept ✓", Vi: "được giữ ✓"},
	{Key: "table.audit.not_kept", En: "not kept", Vi: "không được giữ"},
	{Key: "table.audit.closed_ok", En: "closed ✓", Vi: "đã đóng ✓"},
	{Key: "table.audit.held_open", En: "held open", Vi: "vẫn mở"},
	{Key: "table.audit.refuses", En: "refuses below its own rate", Vi: "từ chối ngay dưới tốc độ của chính nó"},
	{Key: "table.audit.sheds", En: "sheds ✓", Vi: "gạt bớt tải ✓"},
	{Key: "table.audit.no_retry_after", En: "503 without Retry-After", Vi: "503 không kèm Retry-After"},
	{Key: "table.audit.kept_up", En: "kept up", Vi: "theo kịp"},
	{Key: "table.audit.queues", En: "queues, no shedding", Vi: "xếp hàng, không gạt bớt tải"},
	{Key: "table.audit.recovered", En: "recovered in %s ✓", Vi: "hồi lại sau %s ✓"},
	{Key: "table.audit.not_recovered", En: "not recovered in %s", Vi: "chưa hồi lại sau %s"},
	{Key: "table.audit.not_read", En: "not read", Vi: "không đọc được"},
	{Key: "table.audit.headers_seen", En: "%d of 6", Vi: "có %d/6"},

	// Evidence: the cold key (internal/harness/audit/coldkey.go).
	{Key: "table.audit.change_failed", En: "the change: %s", Vi: "lệnh thay đổi: %s"},
	{Key: "table.audit.at_once", En: "%d × GET %s at once → %s", Vi: "%d × GET %s cùng lúc → %s"},
	{Key: "table.audit.at_once_after", En: "after %s → %d, %d × GET %s at once → %s", Vi: "sau %s → %d, %d × GET %s cùng lúc → %s"},
	{Key: "table.audit.spread", En: "latency fastest %s, median %s, slowest %s", Vi: "latency nhanh nhất %s, trung vị %s, chậm nhất %s"},
	{Key: "table.audit.name_counter", En: "name the service's query counter (METRICS=url QUERIES=name) to count the misses", Vi: "muốn đếm số lượt miss thì chỉ ra bộ đếm query của service (METRICS=url QUERIES=tên)"},
	{Key: "table.audit.grew", En: "%s grew by %.0f", Vi: "%s tăng thêm %.0f"},
	{Key: "table.audit.grew_not_cold", En: "%s grew by %.0f: the key was not cold (cached before the audit): give COLD= a path nobody has read, or CHANGE= a write that invalidates it", Vi: "%s tăng thêm %.0f: key không nguội (đã nằm trong cache từ trước khi audit): đưa cho COLD= một path chưa ai đọc, hoặc cho CHANGE= một lệnh ghi làm nó mất hiệu lực"},

	// Evidence: the ETag (etag.go).
	{Key: "table.audit.get_failed", En: "the GET failed", Vi: "GET bị lỗi"},
	{Key: "table.audit.no_etag", En: "no ETag to compare", Vi: "không có ETag để so"},
	{Key: "table.audit.no_etag_header", En: "GET %s → %d, %d bytes, no ETag header: every poll downloads the whole body", Vi: "GET %s → %d, %d byte, không có header ETag: mỗi lần client hỏi lại là tải về nguyên cả body"},
	{Key: "table.audit.revalidated", En: "If-None-Match: %s → %d, %d body bytes", Vi: "If-None-Match: %s → %d, body %d byte"},
	{Key: "table.audit.any_tag_weak", En: "a 304 to a tag it never gave says nothing of its tags", Vi: "304 cho cả một tag nó chưa từng đưa ra thì chẳng nói được gì về các tag của nó"},
	{Key: "table.audit.tagged", En: "GET → %d, ETag %s, %d bytes", Vi: "GET → %d, ETag %s, %d byte"},

	// Evidence: the shell (shell.go).
	{Key: "table.audit.no_answer", En: "POST %s with %d bytes: no answer (%v)", Vi: "POST %s với %d byte: không có trả lời (%v)"},
	{Key: "table.audit.post_error", En: "POST %s with %d bytes: %v after %s", Vi: "POST %s với %d byte: %v sau %s"},
	{Key: "table.audit.refused", En: "POST %s with %d bytes → 413 in %s", Vi: "POST %s với %d byte → 413 sau %s"},
	{Key: "table.audit.no_body_route", En: "POST %s → %d: name a route that takes a body with POST=", Vi: "POST %s → %d: dùng POST= để chỉ ra một route nhận body"},
	{Key: "table.audit.answered_after", En: "POST %s with %d bytes → %d in %s, %d of its bytes sent when the answer began", Vi: "POST %s với %d byte → %d sau %s, lúc trả lời bắt đầu thì đã gửi được %d byte của nó"},
	{Key: "table.audit.truncated", En: "POST %s with a truncated JSON body → %d, %s: %.80q", Vi: "POST %s với body JSON bị cắt cụt → %d, %s: %.80q"},
	{Key: "table.audit.no_json_route", En: "name a route that takes JSON with POST=", Vi: "dùng POST= để chỉ ra một route nhận JSON"},
	{Key: "table.audit.says_close", En: "the answer says Connection: close", Vi: "response ghi Connection: close"},
	{Key: "table.audit.reused", En: "the second GET reused the first one's connection", Vi: "GET thứ hai dùng lại connection của GET đầu"},
	{Key: "table.audit.new_conn", En: "the second GET needed a new connection", Vi: "GET thứ hai phải mở connection mới"},
	{Key: "table.audit.ended", En: "one header line a second: the server ended it after %s (%s)", Vi: "mỗi giây một dòng header: server cắt nó sau %s (%s)"},
	{Key: "table.audit.bytes_then", En: "%d bytes then %v", Vi: "%d byte rồi %v"},
	{Key: "table.audit.still_open", En: "one header line a second: still open after %s, %d lines sent", Vi: "mỗi giây một dòng header: sau %s vẫn mở, đã gửi %d dòng"},
	{Key: "table.audit.interrupted", En: "interrupted", Vi: "bị ngắt giữa chừng"},

	// Evidence: the headers (headers.go).
	{Key: "table.audit.encoding", En: "Accept-Encoding: gzip, br → Content-Encoding %q, %d bytes (%d without)", Vi: "Accept-Encoding: gzip, br → Content-Encoding %q, %d byte (%d khi không nén)"},
	{Key: "table.audit.no_caching", En: "none of Cache-Control, ETag, Last-Modified, Expires, Vary, Age", Vi: "không có header nào trong Cache-Control, ETag, Last-Modified, Expires, Vary, Age"},

	// Evidence: the burst (burst.go).
	{Key: "table.audit.burst", En: "load on %s; closed loop %.0f req/s served; baseline at %.0f req/s: p99 %.1f ms, %d errors (%d × 503); open loop at %.0f req/s for %s: %d answered, %d × 503 (%d with Retry-After), %d other errors, %d never sent; p99 %.0f ms, max %.0f ms", Vi: "tải chạy trên %s; vòng kín phục vụ được %.0f req/s; mức nền %.0f req/s: p99 %.1f ms, %d lỗi (%d × 503); vòng hở %.0f req/s trong %s: %d được trả lời, %d × 503 (%d kèm Retry-After), %d lỗi khác, %d không gửi được; p99 %.0f ms, max %.0f ms"},
	{Key: "table.audit.where_all", En: "all %d CPUs, not pinned", Vi: "cả %d CPU, không ghim"},
	{Key: "table.audit.where_failed", En: "all %d CPUs (pinning failed: %v)", Vi: "cả %d CPU (không ghim được: %v)"},
	{Key: "table.audit.where_driver", En: "CPU %v (the bench's driver CPUs; a step server runs on CPU %v)", Vi: "CPU %v (các CPU của driver khi bench; server của một bước chạy trên CPU %v)"},
	{Key: "table.audit.no_rate", En: "the closed loop served %.0f req/s (%v)", Vi: "vòng kín chỉ phục vụ được %.0f req/s (%v)"},
	{Key: "table.audit.no_burst", En: "no burst", Vi: "không có burst"},
	{Key: "table.audit.below_rate", En: "%d of %d answered 503 at half the closed loop's rate, before the burst (more than the %.0f%% tolerated): the 503s answer a backlog it could not sustain (its closed-loop rate was not one it serves), not a burst", Vi: "%d trên %d request nhận 503 ở một nửa tốc độ của vòng kín, trước cả burst (quá mức %.0f%% cho phép): các 503 ấy trả lời phần tồn đọng mà nó không kham nổi (tốc độ vòng kín của nó không phải tốc độ nó phục vụ được), không phải trả lời burst"},
	{Key: "table.audit.bunched", En: "%d of %d answered 503 at half the closed loop's rate while %.0f%% of them left late: requests sent late leave together, so the 503s may answer the load tool's bunches, not the service's limit", Vi: "%d trên %d request nhận 503 ở một nửa tốc độ của vòng kín, trong khi %.0f%% số đó bị gửi trễ: request gửi trễ thì dồn lại đi cùng lúc, nên các 503 có thể là để trả lời những đợt dồn của công cụ tạo tải, không phải giới hạn của service"},
	{Key: "table.audit.odd_503", En: "%d of %d answered 503 at half the closed loop's rate: within the %.0f%% tolerated (arrivals on a schedule still meet now and then)", Vi: "%d trên %d request nhận 503 ở một nửa tốc độ của vòng kín: vẫn trong mức %.0f%% cho phép (request gửi theo lịch thỉnh thoảng vẫn đến dồn cùng lúc)"},
	{Key: "table.audit.tool_busy", En: "the audit used %.0f%% of its CPUs: the queue may be the load tool's", Vi: "audit đã dùng %.0f%% số CPU của nó: hàng đợi có thể là của công cụ tạo tải"},
	{Key: "table.audit.no_burst_for_it", En: "p99 stayed ≤ %.0f ms: twice the closed loop's rate was no burst for it", Vi: "p99 vẫn ≤ %.0f ms: gấp đôi tốc độ vòng kín vẫn chưa phải là burst đối với nó"},
	{Key: "table.audit.cpu_unknown", En: "no 503, and without METRICS= (process_cpu_seconds_total) the service's CPU is unknown: the queue may be the machine's", Vi: "không có 503, và thiếu METRICS= (process_cpu_seconds_total) thì không biết CPU của service: hàng đợi có thể là của máy"},
	{Key: "table.audit.fell_behind", En: "%d requests never sent: all %d connections the audit may open were waiting on answers, while the service used %.0f%% of a CPU: its queue was not on its CPU (something it waits on, or the machine), so whether it sheds is not judged here", Vi: "%d request không gửi được: cả %d connection mà audit được mở đều đang chờ trả lời, trong khi service chỉ dùng %.0f%% một CPU: hàng đợi của nó không nằm ở CPU (mà ở thứ nó phải chờ, hoặc ở máy), nên ở đây không xét nó có gạt bớt tải hay không"},
	{Key: "table.audit.not_saturated", En: "the service used %.0f%% of a CPU: not saturated, so the queue was the machine's or the load tool's", Vi: "service chỉ dùng %.0f%% một CPU: chưa bão hoà, nên hàng đợi là của máy hoặc của công cụ tạo tải"},
	{Key: "table.audit.queued", En: "the service used %.0f%% of a CPU and answered no 503: the excess waited in a queue", Vi: "service dùng %.0f%% một CPU mà không trả 503 nào: phần vượt quá phải chờ trong hàng đợi"},
	{Key: "table.audit.no_baseline", En: "the baseline was not served cleanly: nothing to recover to", Vi: "mức nền đã không được phục vụ trơn tru: không có mốc nào để hồi về"},
	{Key: "table.audit.unsteady_baseline", En: "%.0f%% of the baseline's requests left late (more than %.0f%%): the load tool could not keep its schedule, so its p99 is no steady level to recover to", Vi: "%.0f%% request của mức nền bị gửi trễ (quá %.0f%%): công cụ tạo tải không giữ nổi lịch gửi, nên p99 của nó không phải một mức ổn định để hồi về"},
	{Key: "table.audit.spread_baseline", En: "the baseline's %d half-second windows had p99s of %s ms, one above %.1f ms (twice their median, or 5 ms above it): the machine stalled, so there was no steady level to recover to", Vi: "%d cửa sổ nửa giây của mức nền có p99 là %s ms, có cửa sổ vượt %.1f ms (gấp đôi trung vị của chúng, hoặc trung vị cộng 5 ms): máy đã bị khựng, nên không có mức ổn định nào để hồi về"},
	{Key: "table.audit.idle_recovery", En: "the service used %.0f%% of a CPU meanwhile: a p99 that stays high on a service that is not busy is the machine's latency, or something it waits on, so whether it recovers is not judged here", Vi: "trong lúc đó service chỉ dùng %.0f%% một CPU: p99 vẫn cao trên một service không bận là độ trễ của máy, hoặc của thứ nó đang chờ, nên ở đây không xét nó có hồi lại hay không"},
	{Key: "table.audit.stalled_recovery", En: "in recovery window %d, %d of %d requests left more than %.1f ms late (the bound's margin over the baseline), up to %.1f ms, with their connection free: the load tool waited that long for a CPU, on a busy machine; 1%% is enough to be a p99, and its p99 of %.1f ms less that wait is within %.1f ms, so whether it recovers is not judged here", Vi: "trong cửa sổ hồi %d, %d trên %d request bị gửi trễ hơn %.1f ms (khoảng dư của giới hạn so với mức nền), tới %.1f ms, dù connection của chúng đang rảnh: công cụ tạo tải đã phải chờ CPU lâu như thế, trên một máy đang bận; 1%% là đủ thành p99, và p99 %.1f ms của cửa sổ trừ đi khoảng chờ ấy thì vẫn trong giới hạn %.1f ms, nên ở đây không xét nó có hồi lại hay không"},
	{Key: "table.audit.stalled_503", En: "%d of %d answered 503 at half the closed loop's rate while the load tool itself sent %d of them late, waiting for a CPU: on a machine that busy a service's slots are held by its own stalled work, so the 503s may be the machine's", Vi: "%d trên %d request nhận 503 ở một nửa tốc độ của vòng kín, trong khi chính công cụ tạo tải đã gửi trễ %d request trong số đó vì phải chờ CPU: trên một máy bận như thế, các slot của service bị giữ bởi chính phần việc đang bị khựng của nó, nên các 503 có thể là của máy"},
	{Key: "table.audit.unsteady_503", En: "%d of %d answered 503 at half the closed loop's rate while the baseline's %d half-second windows had p99s of %s ms, one above %.1f ms (twice their median, or 5 ms above it): the machine stalled, and a stalled service meets the arrivals of the stall all at once, so the 503s may be the machine's", Vi: "%d trên %d request nhận 503 ở một nửa tốc độ của vòng kín, trong khi %d cửa sổ nửa giây của mức nền có p99 là %s ms, có cửa sổ vượt %.1f ms (gấp đôi trung vị của chúng, hoặc trung vị cộng 5 ms): máy đã bị khựng, và một service bị khựng sẽ gặp cùng lúc mọi request đến trong lúc khựng, nên các 503 có thể là của máy"},
	{Key: "table.audit.recovery", En: "at %.0f req/s after the burst, p99 per half second, each after a %s warm-up: %s ms (baseline %.1f ms: the median of %d such windows before the burst, %s ms)", Vi: "ở %.0f req/s sau burst, p99 từng nửa giây, mỗi lần sau %s khởi động: %s ms (mức nền %.1f ms: trung vị của %d cửa sổ như thế trước burst, %s ms)"},

	// The lines of cmd/workshop's verbs that had none of their own file here:
	// watch, run and its load commands, up/down, the worker, capacity, LATENCY,
	// a bench against PEAKLOAD_SERVER_URL, report. Commands, variables and
	// paths stay as typed, in both languages.

	// A bench against PEAKLOAD_SERVER_URL (the Compose bench profile).
	{Key: "note.external", En: "server: %s, a container of its own (one CPU by Docker's quota, GOMAXPROCS=1; not pinned to a core); its memory is not read from here", Vi: "server: %s, chạy trong container riêng (một CPU theo quota của Docker, GOMAXPROCS=1; không ghim vào core nào); bộ nhớ của nó không đọc được từ đây"},

	// make probe's lines (cmd/workshop/probe.go, internal/harness/probe): said to a
	// person, never stored. Each names the make variable the README teaches
	// (URL=, METRICS=, PER_REQUEST=, ALLOW_REMOTE=1), not a flag.

	// make compare of two probes (internal/harness/comparison).
	{Key: "table.fig.errors", En: "errors", Vi: "lỗi"},

	// The extra tables some steps print after the bench table (result.Table):
	// their titles, column headers, word cells and notes. A step builds its
	// table in English (English.T, English.Words), so the results JSON and the
	// README's generated regions keep one language; result.Print says each
	// string again in the run's language through Restate, which finds the key
	// back from the English. Both languages sit side by side here, one key a
	// line, so a translator reads the pair. Figures stay as the English wrote
	// them (docs/vi/glossary.md: the CLI writes numbers one way).

	// Columns several tables share.
	{Key: "table.col.variant", En: "variant", Vi: "biến thể"},
	{Key: "table.col.tool", En: "tool", Vi: "công cụ"},
	{Key: "table.col.mean_ms", En: "mean ms", Vi: "ms trung bình"},
	{Key: "table.col.db_q", En: "DB q/req", Vi: "DB q/req"},
	{Key: "table.col.rps", En: "req/s", Vi: "req/s"},
	{Key: "table.col.scheduled", En: "scheduled req/s", Vi: "req/s theo lịch"},
	{Key: "table.col.achieved", En: "achieved req/s", Vi: "req/s đạt được"},
	{Key: "table.col.missed", En: "missed schedule", Vi: "trễ lịch"},

	// make compare A=… B=…: the figures compared (internal/harness/comparison).
	{Key: "table.fig.db", En: "DB queries / request", Vi: "DB query / request"},
	{Key: "table.fig.redis", En: "Redis bytes / request", Vi: "byte Redis / request"},
	{Key: "table.fig.cpu", En: "server CPU µs / request", Vi: "µs CPU của server / request"},
	{Key: "table.fig.received", En: "bytes received / request", Vi: "byte nhận về / request"},

	// Step 0: the shell, layer by layer (internal/harness/scenario/step00.go).
	{Key: "table.shell.title", En: "the shell, layer by layer: GET /empty, each layer its own server process on the pinned CPU", Vi: "cái vỏ server, từng lớp một: GET /empty, mỗi lớp là một process server riêng trên CPU đã ghim"},
	{Key: "table.shell.layer", En: "layer", Vi: "lớp"},
	{Key: "table.shell.adds", En: "adds", Vi: "thêm vào"},
	{Key: "table.shell.vs", En: "capacity ÷ timeouts'", Vi: "capacity ÷ lớp timeouts"},
	{Key: "table.shell.bare", En: "echo, the route, nothing else", Vi: "echo và route, không gì khác"},
	{Key: "table.shell.timeouts", En: "+ read-header/read/write/idle timeouts", Vi: "+ timeout read-header/read/write/idle"},
	{Key: "table.shell.guards", En: "+ panic recovery, body limit", Vi: "+ bắt panic, giới hạn body"},
	{Key: "table.shell.full", En: "+ response counting (/metrics)", Vi: "+ đếm response (/metrics)"},
	{Key: "table.shell.note_us", En: "server µs/req = the server process's CPU time (user + kernel) ÷ requests: 1e6 ÷ it is what the layer could serve on this CPU;", Vi: "server µs/req = thời gian CPU của process server (user + kernel) ÷ số request: 1e6 ÷ con số đó là số request mỗi giây lớp ấy phục vụ nổi trên CPU này;"},
	{Key: "table.shell.note_vs", En: "capacity ÷ timeouts' = the timeouts layer's µs ÷ this layer's (1.00 = free; claim S0 wants the full shell ≥ 0.95)", Vi: "capacity ÷ lớp timeouts = µs của lớp timeouts ÷ µs của lớp này (1.00 = không tốn gì; claim S0 đòi vỏ đầy đủ ≥ 0.95)"},

	// The open loop and the capacity search (cmd/workshop/capacity.go, internal/harness/load).
	{Key: "table.arrival.title", En: "open loop: requests sent on a schedule, latency from each one's due time", Vi: "vòng hở: request gửi theo lịch, latency tính từ lúc lẽ ra phải gửi"},
	{Key: "table.arrival.not_sent", En: "not sent", Vi: "không gửi được"},
	{Key: "table.arrival.in_flight", En: "in flight", Vi: "đang xử lý"},
	{Key: "table.arrival.note", En: "missed schedule = due requests no connection was free to send within %s (sent late, timed from when they were due); not sent = still waiting when the window's grace ran out", Vi: "trễ lịch = các request đã đến hạn mà không connection nào rảnh để gửi trong vòng %s (gửi muộn, tính giờ từ lúc đến hạn); không gửi được = vẫn còn chờ khi cửa sổ đo đã hết thời gian gia hạn"},
	{Key: "table.capacity.title", En: "capacity: the highest arrival rate served with p99 ≤ %.0f ms (open loop), beside the closed loop's req/s", Vi: "capacity: tốc độ request đến cao nhất mà server còn phục vụ được với p99 ≤ %.0f ms (vòng hở), đặt cạnh req/s của vòng kín"},
	{Key: "table.capacity.closed", En: "closed-loop req/s", Vi: "req/s vòng kín"},
	{Key: "table.capacity.closed_p99", En: "closed p99 ms", Vi: "p99 ms vòng kín"},
	{Key: "table.capacity.ratio", En: "capacity ÷ closed", Vi: "capacity ÷ vòng kín"},
	{Key: "table.capacity.its_p99", En: "its p99 ms", Vi: "p99 ms tại đó"},
	{Key: "table.capacity.failed_at", En: "failed at req/s", Vi: "không đạt ở req/s"},
	{Key: "table.capacity.probes", En: "probes", Vi: "số lần dò"},
	{Key: "table.capacity.none", En: "none", Vi: "chưa có"},
	{Key: "table.capacity.note_closed", En: "closed loop: VUs users who each wait for their answer — by Little's law its req/s = users ÷ (latency + think time), and while the server stalls", Vi: "vòng kín: VUs user, user nào cũng chờ câu trả lời của mình — theo định luật Little, req/s ở đó = số user ÷ (latency + think time), và khi server khựng lại"},
	{Key: "table.capacity.note_omission", En: "nobody sends, so its percentiles leave out the queue (coordinated omission); capacity: requests arrive on a schedule whatever the answers do,", Vi: "thì không ai gửi gì, nên các percentile của nó bỏ sót hàng đợi (coordinated omission); capacity: request đến theo lịch, mặc kệ các câu trả lời,"},
	{Key: "table.capacity.note_open", En: "each timed from when it was due — the rate an audience may send before the wait passes the bound", Vi: "mỗi request tính giờ từ lúc đến hạn — tức tốc độ mà đám đông người dùng có thể gửi trước khi thời gian chờ vượt ngưỡng p99"},
	{Key: "table.probes.title", En: "the capacity probes, in order", Vi: "các lần dò capacity, theo thứ tự"},
	{Key: "table.probes.served", En: "served", Vi: "phục vụ được"},
	{Key: "table.probes.why", En: "why", Vi: "lý do"},
	{Key: "table.probes.yes", En: "yes", Vi: "có"},
	{Key: "table.probes.no", En: "no", Vi: "không"},
	{Key: "table.why.not_open", En: "not an open-loop run", Vi: "không phải lần chạy vòng hở"},
	{Key: "table.why.not_sent", En: "never sent: %d requests (every connection busy)", Vi: "không gửi được: %d request (mọi connection đều bận)"},
	{Key: "table.why.errors", En: "%d errors", Vi: "%d lỗi"},
	{Key: "table.why.achieved", En: "achieved %.0f of %.0f req/s", Vi: "chỉ đạt %.0f trên %.0f req/s"},
	{Key: "table.why.driver_behind", En: "the driver fell behind (%.0f%% sent late, server %.0f%% busy)", Vi: "driver bị tụt lại (%.0f%% gửi muộn, server bận %.0f%%)"},

	// Step 6: the author's rows beside ours (internal/harness/scenario/step06_repo.go).
	{Key: "table.writes.title", En: "The author's README rows (minhpq331/write-heavy-application at %s, Express + MongoDB, 100k events) beside ours — author / ours", Vi: "Các hàng trong README của tác giả (minhpq331/write-heavy-application ở commit %s, Express + MongoDB, 100k event) đặt cạnh số của workshop — tác giả / workshop"},
	{Key: "table.writes.row", En: "author's row", Vi: "hàng của tác giả"},
	{Key: "table.writes.persisted", En: "persisted/s", Vi: "ghi xuống/s"},
	{Key: "table.writes.vs_sync", En: "persisted ÷ sync", Vi: "ghi xuống ÷ sync"},
	{Key: "table.writes.additional", En: "additional s", Vi: "additional time s"},
	{Key: "table.writes.cpu_share", En: "DB CPU, % of a core", Vi: "CPU của DB, % một core"},
	{Key: "table.writes.cpu_us", En: "DB CPU µs/event", Vi: "CPU của DB µs/event"},
	{Key: "table.writes.note_raw", En: "Raw rows have no HTTP, so req/s is inserts/s, and persisted ÷ sync is ÷ raw-seq (the author's row 3).", Vi: "Các hàng raw không qua HTTP, nên req/s ở đó là số insert mỗi giây, và ghi xuống ÷ sync là ÷ raw-seq (hàng 3 của tác giả)."},
	{Key: "table.writes.note_cpu", En: "The author's persisted ÷ sync and DB CPU per event are our arithmetic, the latter \"Mongo CPU\" × (HTTP + additional time) ÷ 100 000 events (group: × its additional time, when it inserts). Ours: FerretDB and PostgreSQL's CPU from /proc over the load and the settle, ÷ events persisted.", Vi: "Ghi xuống ÷ sync và CPU của DB mỗi event phía tác giả là phép tính của workshop, cái sau là \"Mongo CPU\" × (HTTP + additional time) ÷ 100 000 event (group: × additional time của nó, lúc nó insert). Phía workshop: CPU của FerretDB và PostgreSQL đọc từ /proc trong lúc tải và lúc chờ ghi nốt, ÷ số event đã ghi xuống."},

	// Step 9: frameworks, the pool, the kernel (internal/harness/scenario/step09.go).
	{Key: "table.frameworks.title", En: "frameworks, each its own process on one CPU (article D's table; × echo = req/s ÷ echo's on the same endpoint)", Vi: "các framework, mỗi cái một process riêng trên một CPU (bảng của bài D; × echo = req/s ÷ req/s của echo trên cùng endpoint)"},
	{Key: "table.frameworks.note_cpu", En: "CPU = the server's CPU time (user + kernel) ÷ wall time on its one CPU: under ~90% it waited — for PostgreSQL, or for a driver", Vi: "CPU = thời gian CPU của server (user + kernel) ÷ thời gian thực, trên CPU duy nhất của nó: dưới ~90% là nó đã phải chờ — chờ PostgreSQL, hoặc chờ một driver"},
	{Key: "table.frameworks.note_us", En: "that could not keep up; compare CPU µs/req then: 1e6 ÷ µs/req is what that framework could serve on this CPU", Vi: "không theo kịp; khi đó hãy so CPU µs/req: 1e6 ÷ µs/req là số request mỗi giây framework đó phục vụ nổi trên CPU này"},
	{Key: "table.frameworks.note_vs", En: "× echo \"–\": that row's or echo's req/s is not the server's, so no ratio is given (the bench judges none there): other processes took ≥ %.0f%% of its CPUs, the load tool limited it, or, on empty or validate, its server used < %.0f%% of its CPU; compare CPU µs/req", Vi: "× echo \"–\": req/s của hàng đó hoặc của echo không phải của server, nên không đưa tỉ số (bench cũng không xét ở đó): các process khác chiếm ≥ %.0f%% số CPU của nó, công cụ tạo tải đã tự giới hạn nó, hoặc, ở empty hay validate, server của nó dùng < %.0f%% CPU; khi đó hãy đối chiếu CPU µs/req"},
	{Key: "table.pool.title", En: "PostgreSQL pool size (echo, GET /items/:id)", Vi: "kích thước pool PostgreSQL (echo, GET /items/:id)"},
	{Key: "table.pool.connections", En: "connections", Vi: "số kết nối"},
	{Key: "table.kernel.title", En: "kernel settings around article D's tuning, as they are on this machine (read only: see the README for what they do)", Vi: "các thiết lập kernel quanh phần tinh chỉnh của bài D, giá trị trên máy này (chỉ đọc: README giải thích từng thiết lập làm gì)"},
	{Key: "table.kernel.setting", En: "setting", Vi: "thiết lập"},
	{Key: "table.kernel.here", En: "here", Vi: "máy này"},
	{Key: "table.kernel.article", En: "article D", Vi: "bài D"},
	{Key: "table.kernel.not_given", En: "(not given)", Vi: "(bài không nêu)"},
	{Key: "table.kernel.not_named", En: "(not in the article)", Vi: "(bài không nhắc tới)"},
	{Key: "table.kernel.larger", En: "larger", Vi: "lớn hơn"},
	{Key: "table.kernel.open_files", En: "open files (ulimit -n)", Vi: "số file được mở (ulimit -n)"},

	// Step 10: replicas, the stop, the stale window (internal/harness/scenario/step10.go).
	{Key: "table.replicas.title", En: "replicas behind HAProxy (counters summed over the replicas' /metrics)", Vi: "các replica sau HAProxy (bộ đếm cộng dồn từ /metrics của mọi replica)"},
	{Key: "table.replicas.replicas", En: "replicas", Vi: "số replica"},
	{Key: "table.replicas.memory_hit", En: "memory hit", Vi: "hit bộ nhớ"},
	{Key: "table.replicas.redis_gets", En: "Redis GETs/req", Vi: "Redis GET/req"},
	{Key: "table.replicas.loads", En: "Redis loads/TTL", Vi: "load từ Redis/TTL"},
	{Key: "table.replicas.copies", En: "copies/item", Vi: "bản sao/item"},
	{Key: "table.replicas.shares", En: "requests per replica", Vi: "request mỗi replica"},
	{Key: "table.replicas.rss", En: "RSS/replica MB", Vi: "RSS mỗi replica MB"},
	{Key: "table.replicas.cold_start", En: "cold start ms", Vi: "khởi động ms"},
	{Key: "table.replicas.single", En: "%d (no balancer)", Vi: "%d (không có balancer)"},
	{Key: "table.replicas.note_copies", En: "Redis loads/TTL: items loaded from Redis into memory per burst-TTL window, all replicas together; copies/item: those loads ÷ the distinct items that many requests touch (what one process would load) — ~1 for one process or hash routing, up to N for round-robin", Vi: "load từ Redis/TTL: số item được load từ Redis vào bộ nhớ trong mỗi khoảng burst TTL, cộng cả các replica; bản sao/item: số lần load đó ÷ số item khác nhau mà ngần ấy request chạm tới (số mà một process sẽ load) — ~1 với một process hoặc khi chia theo hash, tới N với round-robin"},
	{Key: "table.replicas.note_shares", En: "requests per replica: each replica's own request counter — the balancer is in the path; req/s cannot grow with N here (every replica shares the server's CPU)", Vi: "request mỗi replica: bộ đếm request của chính từng replica — balancer nằm trên đường đi; ở đây req/s không thể tăng theo N (mọi replica dùng chung CPU của server)"},
	{Key: "table.stop.title", En: "one replica stopped a third of the way in (%s)", Vi: "một replica bị dừng khi hàng chạy được một phần ba (%s)"},
	{Key: "table.stop.window", En: "window", Vi: "khoảng"},
	{Key: "table.stop.hit_ratio", En: "memory hit ratio", Vi: "hit ratio bộ nhớ"},
	{Key: "table.stop.before", En: "before the stop", Vi: "trước khi dừng"},
	{Key: "table.stop.after", En: "2 burst TTLs after", Vi: "2 burst TTL ngay sau đó"},
	{Key: "table.stop.rest", En: "the rest", Vi: "phần còn lại"},
	{Key: "table.stop.note_window", En: "the window after the stop starts when the replica was told to stop (SIGTERM; it took %.0f ms to exit) and ends two burst TTLs after it exited", Vi: "khoảng ngay sau khi dừng bắt đầu lúc replica nhận lệnh dừng (SIGTERM; nó mất %.0f ms để thoát) và kết thúc hai burst TTL sau khi nó đã thoát"},
	{Key: "table.stop.note_errors", En: "errors during the whole row: %d (HAProxy retries a request that found the replica gone on another one)", Vi: "số lỗi trong suốt hàng này: %d (request nào gặp replica đã tắt thì HAProxy gửi lại sang một replica khác)"},
	{Key: "table.stale.title", En: "the stale window: how long after a change each replica served the old ETag", Vi: "khoảng stale: sau một thay đổi, mỗi replica còn phục vụ ETag cũ bao lâu"},
	{Key: "table.stale.changes", En: "changes", Vi: "số thay đổi"},
	{Key: "table.stale.max", En: "max ms (stale-pubsub: the listening replicas)", Vi: "max ms (stale-pubsub: các replica đang lắng nghe)"},
	{Key: "table.stale.missed", En: "replica that missed them: max ms", Vi: "replica bị lỡ thông báo: max ms"},
	{Key: "table.stale.forgets", En: "forgets per change", Vi: "lần quên mỗi thay đổi"},

	// Verdicts and sources (internal/harness/result: Claim.VerdictIn, Source.NameIn).
	{Key: "verdict.reproduced", En: "REPRODUCED", Vi: "TÁI HIỆN ĐƯỢC"},
	{Key: "verdict.not_reproduced", En: "NOT reproduced", Vi: "KHÔNG tái hiện được"},
	{Key: "verdict.not_measured", En: "not measured", Vi: "chưa đo"},
	{Key: "verdict.not_judged", En: "not judged: the load tool limited %s", Vi: "không xét: công cụ tạo tải đã chạm giới hạn của chính nó ở %s"},
	{Key: "verdict.unjudged", En: "not judged: %s", Vi: "không xét: %s"},
	{Key: "verdict.as_measured", En: " (as measured: %s)", Vi: " (theo số đo: %s)"},
	{Key: "verdict.busy", En: "not judged (the machine was busy: other processes took %s of the rows' CPUs)", Vi: "không xét (máy đang bận: các process khác chiếm %s CPU của các hàng)"},
	{Key: "verdict.busy_beside", En: "not judged (the machine was busy: other processes took %s of the rows' CPUs; – marks a row with no server, whose share is not measured: the rows after the ; stand in)", Vi: "không xét (máy đang bận: các process khác chiếm %s CPU của các hàng; – là hàng không có server, không đo được phần bị chiếm: các hàng sau dấu ; thay cho nó)"},
	{Key: "verdict.busy_rounds", En: " (%d of %d rounds measured busy: not counted)", Vi: " (%d trên %d vòng đo lúc máy bận: không tính)"},
	{Key: "verdict.unstable", En: "UNSTABLE: reproduced in %d of %d rounds (median rows: %s) — the figure straddles the tolerance here; rerun on a quieter machine, or with more RUNS", Vi: "KHÔNG ỔN ĐỊNH: tái hiện được ở %d trên %d vòng (theo các hàng trung vị: %s) — trên máy này con số nằm ngay sát ngưỡng dung sai; chạy lại trên máy rảnh hơn, hoặc tăng RUNS"},
	{Key: "source.article", En: "article %s", Vi: "bài %s"},
	{Key: "source.repo", En: "author's repo", Vi: "repo của tác giả"},
	{Key: "source.guide", En: "Node.js guide", Vi: "hướng dẫn của Node.js"},
	{Key: "source.ours", En: "ours", Vi: "của workshop"},
	{Key: "source.unknown", En: "article", Vi: "bài viết"},

	// The bench table (internal/harness/result: Result.Print).
	{Key: "bench.not_pinned", En: "not pinned (shares all CPUs with the driver)", Vi: "không ghim CPU (server dùng chung mọi CPU với driver)"},
	{Key: "bench.load_pinned", En: "load from CPU %v (the bench's driver CPUs); the service's CPUs are as you started it", Vi: "tải chạy từ CPU %v (các CPU của driver khi bench); service chạy trên CPU nào là do cách bạn khởi động nó"},
	{Key: "bench.pinned", En: "server pinned to CPU %v with GOMAXPROCS=%d, databases on %v, driver on %v", Vi: "server ghim vào CPU %v với GOMAXPROCS=%d, database trên %v, driver trên %v"},
	{Key: "bench.head_service", En: "\n%s   (%d CPUs, %s)\n", Vi: "\n%s   (%d CPU, %s)\n"},
	{Key: "bench.head", En: "\nstep %d — %s   (%d CPUs, %s)\n", Vi: "\nbước %d — %s   (%d CPU, %s)\n"},
	{Key: "bench.stack", En: "  stack: %s\n", Vi: "  stack: %s\n"},
	{Key: "bench.stack_native", En: "native (private PostgreSQL/Redis/MongoDB from local binaries, loopback round trips)", Vi: "native (PostgreSQL/Redis/MongoDB riêng chạy từ binary trên máy, round trip qua loopback)"},
	{Key: "bench.stack_compose", En: "compose (databases in Docker containers: each round trip also crosses Docker's port proxy)", Vi: "compose (database chạy trong container Docker: mỗi round trip còn đi qua port proxy của Docker)"},
	{Key: "bench.stack_compose_bench", En: "compose-bench (server, databases and driver each in a Docker container, on Docker's network)", Vi: "compose-bench (server, database và driver, mỗi thứ một container Docker, nói chuyện qua mạng của Docker)"},
	{Key: "bench.stack_none", En: "none (this step needs no database)", Vi: "none (bước này không cần database)"},
	{Key: "bench.latency", En: ", + %.2f ms per PostgreSQL/Redis round trip (LATENCY)", Vi: ", + %.2f ms cho mỗi round trip tới PostgreSQL/Redis (LATENCY)"},
	{Key: "bench.spread_col", En: "req/s spread\t", Vi: "req/s min–max\t"},
	{Key: "bench.rounds", En: "  %d interleaved rounds: each row is its %s round by req/s; the spread is the rounds' min–max\n", Vi: "  %d vòng chạy xen kẽ: mỗi hàng là vòng %s theo req/s; cột min–max là khoảng dao động giữa các vòng\n"},
	{Key: "bench.fastest", En: "fastest", Vi: "nhanh nhất"},
	{Key: "bench.median", En: "median", Vi: "trung vị"},
	{Key: "bench.header_rate", En: "variant\troute\ttool\tVUs\treq/s\t", Vi: "biến thể\troute\tcông cụ\tVUs\treq/s\t"},
	{Key: "bench.header_costs", En: "p50 ms\tp95 ms\tp99 ms\terrors\tKB/req\tDB q/req\tRedis B/req\tserver µs/req\tserver busy\tclient µs/req\tclient busy\t", Vi: "p50 ms\tp95 ms\tp99 ms\tlỗi\tKB/req\tDB q/req\tRedis B/req\tserver µs/req\tserver bận\tclient µs/req\tclient bận\t"},
	{Key: "bench.busy_many", En: "  (server busy = req/s × server µs/req: 100%% is one CPU busy, %d%% all %d of the server's)\n", Vi: "  (server bận = req/s × server µs/req: 100%% là một CPU bận kín, %d%% là cả %d CPU của server)\n"},
	{Key: "bench.busy_one", En: "  (server busy = req/s × server µs/req on its one CPU: under ~90% the server was waiting, not working)\n", Vi: "  (server bận = req/s × server µs/req trên CPU duy nhất của nó: dưới ~90% là server đang ngồi chờ chứ không phải đang làm việc)\n"},
	{Key: "bench.first_error", En: "  first error in %s: %s\n", Vi: "  lỗi đầu tiên ở %s: %s\n"},
	{Key: "bench.claims", En: "\nthe claims beside ours (each says whose it is):\n", Vi: "\ncác claim, đặt cạnh số đo của lần chạy này (mỗi claim ghi rõ là của ai):\n"},
	{Key: "bench.claim", En: "  %-3s %s:  %s\n      measured:  %s\n      verdict:   %s\n", Vi: "  %-3s %s:  %s\n      đo được:   %s\n      kết luận:  %s\n"},
	{Key: "bench.claim_tolerance", En: "      tolerance: %s\n", Vi: "      dung sai:  %s\n"},
	{Key: "bench.claim_tolerance_more", En: "                 %s\n", Vi: "                 %s\n"},
	{Key: "bench.client_bound_rows", En: "      client-bound: %s — a rate measured there is the load tool's limit, not the server's\n", Vi: "      client-bound: %s — req/s đo ở đó là giới hạn của công cụ tạo tải, không phải của server\n"},
	{Key: "bench.note", En: "  note: %s\n", Vi: "  ghi chú: %s\n"},
	{Key: "bench.numbers", En: "", Vi: "  (số viết kiểu tiếng Anh, như bảng trong README: 5.3 tức là 5,3; 81,500 tức là 81.500)\n"}, // English marks need no saying; Vietnamese says its own once

	// A result's notes: stored in English, printed in the run's language
	// (Restate finds the message again from the stored sentence).
	{Key: "note.quick", En: "QUICK=1: a few seconds per variant — a smoke test, not a measurement", Vi: "QUICK=1: mỗi biến thể chỉ chạy vài giây — đây là smoke test, không phải phép đo"},
	{Key: "note.latency", En: "LATENCY: %.2f ms added to every PostgreSQL and Redis round trip of the server (a delaying proxy process between them)", Vi: "LATENCY: mỗi round trip từ server tới PostgreSQL và Redis bị cộng thêm %.2f ms (một process proxy làm trễ đứng ở giữa)"},
	{Key: "note.skipped", En: "the rows of %s skipped: that server did not start (%s)", Vi: "bỏ qua các hàng của %s: server đó không khởi động được (%s)"},

	// Step 6's note on each write row: the whole line, one key per part it has.
	{Key: "note.write_row", En: writeRow, Vi: viWriteRow},
	{Key: "note.write_row_bulk", En: writeRow + writeBulk, Vi: viWriteRow + viWriteBulk},
	{Key: "note.write_row_cpu", En: writeRow + writeCPU, Vi: viWriteRow + viWriteCPU},
	{Key: "note.write_row_bulk_cpu", En: writeRow + writeBulk + writeCPU, Vi: viWriteRow + viWriteBulk + viWriteCPU},
	{Key: "note.counters_lost", En: "%s: lost %.0f acknowledged increments — the server acknowledged %.0f as written, its counters at MongoDB gained %.0f", Vi: "%s: mất %.0f lần cộng đã được xác nhận — server xác nhận đã ghi %.0f, các counter của nó tại MongoDB chỉ tăng %.0f"},
	{Key: "rule.client_bound", En: "client-bound = the load tool used ≥ %.0f%% of its CPUs while the server used < %.0f%% of its own: that req/s is the tool's limit, not the server's", Vi: "client-bound = công cụ tạo tải dùng ≥ %.0f%% CPU của nó trong khi server dùng < %.0f%% CPU của mình: req/s đó là giới hạn của công cụ, không phải của server"},
	{Key: "rule.tool_limit", En: "a claim judged on rates is not judged when the load tool limited one of its rows: client-bound " +
		"(the tool used ≥ %.0f%% of its CPUs while the server used < %.0f%%), or sharing the databases' CPUs " +
		"(a row with ≥ %.1f DB queries or Redis GETs per request, the server < %.0f%% busy, the tool ≥ %.0f%% of the CPUs it shares with the databases), " +
		"or a row read as the server's ceiling with the server < %.0f%% busy; count-based claims keep their verdicts", Vi: "claim chấm theo req/s thì không xét khi công cụ tạo tải đã tự giới hạn một trong các hàng của claim: client-bound " +
		"(công cụ dùng ≥ %.0f%% CPU của nó trong khi server dùng < %.0f%%), hoặc tranh CPU với database " +
		"(hàng có ≥ %.1f DB query hay Redis GET mỗi request, server bận < %.0f%%, công cụ dùng ≥ %.0f%% số CPU nó chia với database), " +
		"hoặc hàng đóng vai mức trần của server mà server chỉ bận < %.0f%%; claim chấm theo bộ đếm vẫn giữ kết luận"},
	{Key: "rule.others", En: "other processes took this share of each row's CPUs: %s; from %.0f%%, a claim judged on that row's rate is not judged", Vi: "phần CPU của mỗi hàng bị các process khác chiếm: %s; từ %.0f%% trở lên thì claim chấm theo req/s của hàng đó không xét"},
	{Key: "rule.busy", En: "a claim judged on rates is not judged when other processes took ≥ %.0f%% of the CPUs of one of its rows (the server's, the load tool's, the databases'); " +
		"with rounds, a busy round counts neither way; count-based claims keep their verdicts", Vi: "claim chấm theo req/s thì không xét khi các process khác chiếm ≥ %.0f%% số CPU của một trong các hàng của claim (CPU của server, của công cụ tạo tải, của database); " +
		"khi chạy nhiều vòng, vòng nào đo lúc máy bận thì không tính cho bên nào; các claim chấm theo bộ đếm vẫn giữ kết luận"},
	{Key: "rule.shared_cpu", En: "the load tool shares its CPUs with the databases and used a real share of them in %s: a database-bound req/s there is lower than a lighter tool would measure (from %.0f%%, a claim judged on it is not judged)", Vi: "công cụ tạo tải dùng chung CPU với database và đã chiếm một phần đáng kể ở %s: ở đó, req/s của một hàng nặng về database thấp hơn số một công cụ nhẹ hơn sẽ đo được (từ %.0f%% trở lên thì claim chấm theo hàng đó không xét)"},

	// make compare (cmd/workshop/compare.go, internal/harness/comparison).
	{Key: "verdict.unstable_word", En: "UNSTABLE", Vi: "KHÔNG ỔN ĐỊNH"},

	// make compare DIR=<folder>: a lead's folder, one table per step, one
	// row per person (cmd/workshop/compare.go, internal/harness/comparison/folder.go).
	{Key: "compare.not_judged", En: "not judged", Vi: "không xét"},
}

func init() { messages.Add(texts) }
