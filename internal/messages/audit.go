package messages

// make audit's table (internal/audit): its title, headers, practices,
// verdicts and evidence. A finding is written in English (English.T), so
// results/audit/*.json keeps one language; the CLI says it again at print
// time through Restate, which finds each key back from the English, the
// figures carried over. Evidence joins its sentences with "; ": each is a
// key of its own, and Restate says them one by one.
var auditWords = []struct{ key, en, vi string }{
	{"table.audit.title", "audit: the articles' practices and ours, checked from outside", "audit: các practice của bốn bài và của workshop, kiểm tra từ bên ngoài"},
	{"table.audit.practice", "practice", "practice"},
	{"table.audit.verdict", "verdict", "kết luận"},
	{"table.audit.evidence", "evidence", "bằng chứng"},
	{"table.audit.step", "step", "bước"},
	{"table.audit.note", "✓ the practice is there, ✗ missing, – not judged (the evidence says why), info: reported, not judged; each step's README teaches its practice",
		"✓ đã có practice đó, ✗ còn thiếu, – không xét (bằng chứng nói lý do), thông tin: chỉ báo cáo, không xét; README của mỗi bước dạy practice của bước đó"},

	// The practices (docs/vi/practices.md names them the same way).
	{"table.audit.p_cold", "a cold key: %d concurrent identical requests coalesce", "key nguội: %d request giống hệt nhau cùng lúc được gộp lại"},
	{"table.audit.p_etag", "ETag / 304 on a repeated GET", "ETag / 304 cho một GET lặp lại"},
	{"table.audit.p_weak", "ETag: the weak form of the tag matches", "ETag: dạng weak của tag vẫn khớp"},
	{"table.audit.p_body", "oversized body (%d MiB) refused with 413", "body quá lớn (%d MiB) bị từ chối bằng 413"},
	{"table.audit.p_json", "malformed JSON gets a 4xx with a JSON error", "JSON hỏng được trả lời bằng 4xx kèm lỗi JSON"},
	{"table.audit.p_keepalive", "keep-alive honoured", "giữ kết nối (keep-alive)"},
	{"table.audit.p_slowloris", "a slowloris connection closed within %s", "kết nối slowloris bị đóng trong vòng %s"},
	{"table.audit.p_shed", "under a burst: sheds load (503 + Retry-After), latency bounded", "khi có burst: gạt bớt tải (503 + Retry-After), latency có giới hạn"},
	{"table.audit.p_recover", "after a burst: p99 recovers", "sau burst: p99 hồi lại"},
	{"table.audit.p_compression", "compression (reported, not judged)", "header nén (chỉ báo cáo, không xét)"},
	{"table.audit.p_caching", "caching headers (reported, not judged)", "header cache (chỉ báo cáo, không xét)"},

	// The steps that teach them (those named by their directories alone print as they are).
	{"table.audit.s_shell", "0 ceilings (the shell)", "0 mức trần (vỏ server)"},
	{"table.audit.s_burst", "4–6 (singleflight, burst cache, buffered writes: 503 + Retry-After)", "4–6 (singleflight, burst cache, ghi theo lô: 503 + Retry-After)"},
	{"table.audit.s_compression", "— (docs/scaling.md: a CDN in front)", "— (docs/scaling.md: một CDN đứng trước)"},

	// Verdicts ("✓", "✗", "–" are marks: said in no language).
	{"table.audit.not_judged", "not judged", "không xét"},
	{"table.audit.coalesced", "coalesced ✓ (%.0f for %d)", "gộp được ✓ (%.0f cho %d)"},
	{"table.audit.stampede", "stampede: %.0f queries for %d", "stampede: %.0f query cho %d"},
	{"table.audit.no_304", "no 304", "không có 304"},
	{"table.audit.any_tag", "304 to any tag", "304 cho mọi tag"},
	{"table.audit.weak_missed", "weak tag not matched", "tag weak không khớp"},
	{"table.audit.weak_match", "weak match ✓", "khớp dạng weak ✓"},
	{"table.audit.hangs", "hangs", "treo"},
	{"table.audit.not_413", "%d, not 413", "%d, không phải 413"},
	{"table.audit.json_ok", "%d JSON ✓", "%d JSON ✓"},
	{"table.audit.not_json", "%d, body not JSON", "%d, body không phải JSON"},
	{"table.audit.not_4xx", "%d, not a 4xx", "%d, không phải 4xx"},
	{"table.audit.closed", "closed", "bị đóng"},
	{"table.audit.kept", "kept ✓", "được giữ ✓"},
	{"table.audit.not_kept", "not kept", "không được giữ"},
	{"table.audit.closed_ok", "closed ✓", "đã đóng ✓"},
	{"table.audit.held_open", "held open", "vẫn mở"},
	{"table.audit.refuses", "refuses below its own rate", "từ chối ngay dưới tốc độ của chính nó"},
	{"table.audit.sheds", "sheds ✓", "gạt bớt tải ✓"},
	{"table.audit.no_retry_after", "503 without Retry-After", "503 không kèm Retry-After"},
	{"table.audit.kept_up", "kept up", "theo kịp"},
	{"table.audit.queues", "queues, no shedding", "xếp hàng, không gạt bớt tải"},
	{"table.audit.recovered", "recovered in %s ✓", "hồi lại sau %s ✓"},
	{"table.audit.not_recovered", "not recovered in %s", "chưa hồi lại sau %s"},
	{"table.audit.not_read", "not read", "không đọc được"},
	{"table.audit.headers_seen", "%d of 6", "có %d/6"},

	// Evidence: the cold key (internal/audit/coldkey.go).
	{"table.audit.change_failed", "the change: %s", "lệnh thay đổi: %s"},
	{"table.audit.at_once", "%d × GET %s at once → %s", "%d × GET %s cùng lúc → %s"},
	{"table.audit.at_once_after", "after %s → %d, %d × GET %s at once → %s", "sau %s → %d, %d × GET %s cùng lúc → %s"},
	{"table.audit.spread", "latency fastest %s, median %s, slowest %s", "latency nhanh nhất %s, trung vị %s, chậm nhất %s"},
	{"table.audit.name_counter", "name the service's query counter (METRICS=url QUERIES=name) to count the misses",
		"muốn đếm số lượt miss thì chỉ ra bộ đếm query của service (METRICS=url QUERIES=tên)"},
	{"table.audit.grew", "%s grew by %.0f", "%s tăng thêm %.0f"},
	{"table.audit.grew_not_cold", "%s grew by %.0f: the key was not cold (cached before the audit): give COLD= a path nobody has read, or CHANGE= a write that invalidates it",
		"%s tăng thêm %.0f: key không nguội (đã nằm trong cache từ trước khi audit): đưa cho COLD= một path chưa ai đọc, hoặc cho CHANGE= một lệnh ghi làm nó mất hiệu lực"},

	// Evidence: the ETag (etag.go).
	{"table.audit.get_failed", "the GET failed", "GET bị lỗi"},
	{"table.audit.no_etag", "no ETag to compare", "không có ETag để so"},
	{"table.audit.no_etag_header", "GET %s → %d, %d bytes, no ETag header: every poll downloads the whole body",
		"GET %s → %d, %d byte, không có header ETag: mỗi lần client hỏi lại là tải về nguyên cả body"},
	{"table.audit.revalidated", "If-None-Match: %s → %d, %d body bytes", "If-None-Match: %s → %d, body %d byte"},
	{"table.audit.any_tag_weak", "a 304 to a tag it never gave says nothing of its tags", "304 cho cả một tag nó chưa từng đưa ra thì chẳng nói được gì về các tag của nó"},
	{"table.audit.tagged", "GET → %d, ETag %s, %d bytes", "GET → %d, ETag %s, %d byte"},

	// Evidence: the shell (shell.go).
	{"table.audit.no_answer", "POST %s with %d bytes: no answer (%v)", "POST %s với %d byte: không có trả lời (%v)"},
	{"table.audit.post_error", "POST %s with %d bytes: %v after %s", "POST %s với %d byte: %v sau %s"},
	{"table.audit.refused", "POST %s with %d bytes → 413 in %s", "POST %s với %d byte → 413 sau %s"},
	{"table.audit.no_body_route", "POST %s → %d: name a route that takes a body with POST=", "POST %s → %d: dùng POST= để chỉ ra một route nhận body"},
	{"table.audit.answered_after", "POST %s with %d bytes → %d in %s, %d of its bytes sent when the answer began",
		"POST %s với %d byte → %d sau %s, lúc trả lời bắt đầu thì đã gửi được %d byte của nó"},
	{"table.audit.truncated", "POST %s with a truncated JSON body → %d, %s: %.80q", "POST %s với body JSON bị cắt cụt → %d, %s: %.80q"},
	{"table.audit.no_json_route", "name a route that takes JSON with POST=", "dùng POST= để chỉ ra một route nhận JSON"},
	{"table.audit.says_close", "the answer says Connection: close", "response ghi Connection: close"},
	{"table.audit.reused", "the second GET reused the first one's connection", "GET thứ hai dùng lại connection của GET đầu"},
	{"table.audit.new_conn", "the second GET needed a new connection", "GET thứ hai phải mở connection mới"},
	{"table.audit.ended", "one header line a second: the server ended it after %s (%s)", "mỗi giây một dòng header: server cắt nó sau %s (%s)"},
	{"table.audit.bytes_then", "%d bytes then %v", "%d byte rồi %v"},
	{"table.audit.still_open", "one header line a second: still open after %s, %d lines sent",
		"mỗi giây một dòng header: sau %s vẫn mở, đã gửi %d dòng"},
	{"table.audit.interrupted", "interrupted", "bị ngắt giữa chừng"},

	// Evidence: the headers (headers.go).
	{"table.audit.encoding", "Accept-Encoding: gzip, br → Content-Encoding %q, %d bytes (%d without)", "Accept-Encoding: gzip, br → Content-Encoding %q, %d byte (%d khi không nén)"},
	{"table.audit.no_caching", "none of Cache-Control, ETag, Last-Modified, Expires, Vary, Age", "không có header nào trong Cache-Control, ETag, Last-Modified, Expires, Vary, Age"},

	// Evidence: the burst (burst.go).
	{"table.audit.burst", "load on %s; closed loop %.0f req/s served; baseline at %.0f req/s: p99 %.1f ms, %d errors (%d × 503); open loop at %.0f req/s for %s: %d answered, %d × 503 (%d with Retry-After), %d other errors, %d never sent; p99 %.0f ms, max %.0f ms",
		"tải chạy trên %s; vòng kín phục vụ được %.0f req/s; mức nền %.0f req/s: p99 %.1f ms, %d lỗi (%d × 503); vòng hở %.0f req/s trong %s: %d được trả lời, %d × 503 (%d kèm Retry-After), %d lỗi khác, %d không gửi được; p99 %.0f ms, max %.0f ms"},
	{"table.audit.where_all", "all %d CPUs, not pinned", "cả %d CPU, không ghim"},
	{"table.audit.where_failed", "all %d CPUs (pinning failed: %v)", "cả %d CPU (không ghim được: %v)"},
	{"table.audit.where_driver", "CPU %v (the bench's driver CPUs; a step server runs on CPU %v)", "CPU %v (các CPU của driver khi bench; server của một bước chạy trên CPU %v)"},
	{"table.audit.no_rate", "the closed loop served %.0f req/s (%v)", "vòng kín chỉ phục vụ được %.0f req/s (%v)"},
	{"table.audit.no_burst", "no burst", "không có burst"},
	{"table.audit.below_rate", "%d of %d answered 503 at half the closed loop's rate, before the burst (more than the %.0f%% tolerated): the 503s answer a backlog it could not sustain (its closed-loop rate was not one it serves), not a burst",
		"%d trên %d request nhận 503 ở một nửa tốc độ của vòng kín, trước cả burst (quá mức %.0f%% cho phép): các 503 ấy trả lời phần tồn đọng mà nó không kham nổi (tốc độ vòng kín của nó không phải tốc độ nó phục vụ được), không phải trả lời burst"},
	{"table.audit.bunched", "%d of %d answered 503 at half the closed loop's rate while %.0f%% of them left late: requests sent late leave together, so the 503s may answer the load tool's bunches, not the service's limit",
		"%d trên %d request nhận 503 ở một nửa tốc độ của vòng kín, trong khi %.0f%% số đó bị gửi trễ: request gửi trễ thì dồn lại đi cùng lúc, nên các 503 có thể là để trả lời những đợt dồn của công cụ tạo tải, không phải giới hạn của service"},
	{"table.audit.odd_503", "%d of %d answered 503 at half the closed loop's rate: within the %.0f%% tolerated (arrivals on a schedule still meet now and then)",
		"%d trên %d request nhận 503 ở một nửa tốc độ của vòng kín: vẫn trong mức %.0f%% cho phép (request gửi theo lịch thỉnh thoảng vẫn đến dồn cùng lúc)"},
	{"table.audit.tool_busy", "the audit used %.0f%% of its CPUs: the queue may be the load tool's", "audit đã dùng %.0f%% số CPU của nó: hàng đợi có thể là của công cụ tạo tải"},
	{"table.audit.no_burst_for_it", "p99 stayed ≤ %.0f ms: twice the closed loop's rate was no burst for it", "p99 vẫn ≤ %.0f ms: gấp đôi tốc độ vòng kín vẫn chưa phải là burst đối với nó"},
	{"table.audit.cpu_unknown", "no 503, and without METRICS= (process_cpu_seconds_total) the service's CPU is unknown: the queue may be the machine's",
		"không có 503, và thiếu METRICS= (process_cpu_seconds_total) thì không biết CPU của service: hàng đợi có thể là của máy"},
	{"table.audit.fell_behind", "%d requests never sent: all %d connections the audit may open were waiting on answers, while the service used %.0f%% of a CPU: its queue was not on its CPU (something it waits on, or the machine), so whether it sheds is not judged here",
		"%d request không gửi được: cả %d connection mà audit được mở đều đang chờ trả lời, trong khi service chỉ dùng %.0f%% một CPU: hàng đợi của nó không nằm ở CPU (mà ở thứ nó phải chờ, hoặc ở máy), nên ở đây không xét nó có gạt bớt tải hay không"},
	{"table.audit.not_saturated", "the service used %.0f%% of a CPU: not saturated, so the queue was the machine's or the load tool's",
		"service chỉ dùng %.0f%% một CPU: chưa bão hoà, nên hàng đợi là của máy hoặc của công cụ tạo tải"},
	{"table.audit.queued", "the service used %.0f%% of a CPU and answered no 503: the excess waited in a queue",
		"service dùng %.0f%% một CPU mà không trả 503 nào: phần vượt quá phải chờ trong hàng đợi"},
	{"table.audit.no_baseline", "the baseline was not served cleanly: nothing to recover to", "mức nền đã không được phục vụ trơn tru: không có mốc nào để hồi về"},
	{"table.audit.unsteady_baseline", "%.0f%% of the baseline's requests left late (more than %.0f%%): the load tool could not keep its schedule, so its p99 is no steady level to recover to",
		"%.0f%% request của mức nền bị gửi trễ (quá %.0f%%): công cụ tạo tải không giữ nổi lịch gửi, nên p99 của nó không phải một mức ổn định để hồi về"},
	{"table.audit.spread_baseline", "the baseline's %d half-second windows had p99s of %s ms, one above %.1f ms (twice their median, or 5 ms above it): the machine stalled, so there was no steady level to recover to",
		"%d cửa sổ nửa giây của mức nền có p99 là %s ms, có cửa sổ vượt %.1f ms (gấp đôi trung vị của chúng, hoặc trung vị cộng 5 ms): máy đã bị khựng, nên không có mức ổn định nào để hồi về"},
	{"table.audit.idle_recovery", "the service used %.0f%% of a CPU meanwhile: a p99 that stays high on a service that is not busy is the machine's latency, or something it waits on, so whether it recovers is not judged here",
		"trong lúc đó service chỉ dùng %.0f%% một CPU: p99 vẫn cao trên một service không bận là độ trễ của máy, hoặc của thứ nó đang chờ, nên ở đây không xét nó có hồi lại hay không"},
	{"table.audit.recovery", "at %.0f req/s after the burst, p99 per half second, each after a %s warm-up: %s ms (baseline %.1f ms: the median of %d such windows before the burst, %s ms)",
		"ở %.0f req/s sau burst, p99 từng nửa giây, mỗi lần sau %s khởi động: %s ms (mức nền %.1f ms: trung vị của %d cửa sổ như thế trước burst, %s ms)"},
}

// auditLines are the audit command's own lines (cmd/workshop/audit.go),
// printed once in the run's language and never stored.
var auditLines = []struct{ key, en, vi string }{
	{"audit.usage", "usage: make audit URL=http://127.0.0.1:8080/path [POST=/route] [METRICS=url QUERIES=name] [COLD=/path CHANGE='POST /path']",
		"cách dùng: make audit URL=http://127.0.0.1:8080/path [POST=/route] [METRICS=url QUERIES=tên] [COLD=/path CHANGE='POST /path']"},
	{"audit.start", "audit %s (%s): the slowloris probe waits up to %s, the burst lasts %s\n",
		"audit %s (%s): phép thử slowloris chờ tối đa %s, burst kéo dài %s\n"},
	{"audit.evidence", "\nevidence:\n", "\nbằng chứng:\n"},
	{"audit.queries_metrics", "QUERIES= names a counter of the service's metrics: give METRICS=url too",
		"QUERIES= là tên một bộ đếm trong metrics của service: hãy đưa thêm METRICS=url"},
	{"audit.queries_none", "QUERIES=%s is not a metric of METRICS=%s (it has %d, e.g. %s)",
		"QUERIES=%s không phải là một metric của METRICS=%s (trang đó có %d metric, ví dụ %s)"},
	{"audit.first_failed", "the first requests, the cold key's %d GETs of %s sent before anything else, got no answer (%s; each request may take %s): nothing was audited; is the service up at %s, and does the URL name a route that succeeds?",
		"những request đầu tiên, %d request GET %s của key nguội gửi trước mọi thứ khác, không nhận được câu trả lời nào (%s; mỗi request được chờ tối đa %s): chưa kiểm tra gì cả; service có đang chạy ở %s không, và URL có trỏ tới một route trả lời thành công không?"},
	{"audit.wrote", "\nwrote %s (drawn by make report)\n", "\nđã ghi %s (make report đưa nó vào báo cáo)\n"},
}

func init() {
	for _, w := range append(auditWords, auditLines...) {
		en[w.key], vi[w.key] = w.en, w.vi
	}
}
