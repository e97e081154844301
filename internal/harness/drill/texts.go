package drill

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// make step-N drill's lines (cmd/workshop/drill.go, internal/harness/drill):
	// its progress, its table and its verdict, said to a person. The drill's
	// results file (its note, the moments on its chart) stays English, as every
	// stored line does. Counter names, HTTP statuses and signals (5xx, 503 +
	// Retry-After, SIGTERM, SIGKILL) are written as typed in both languages.

	// Progress, timestamped (internal/harness/drill).
	{Key: "drill.say.load", En: "load: %d clients", Vi: "tải: %d client"},
	{Key: "drill.say.load_cached", En: "load: %d clients on the cached route", Vi: "tải: %d client vào route có cache"},
	{Key: "drill.say.sigterm", En: "SIGTERM to the server — %d accepted so far, load still on", Vi: "SIGTERM gửi tới server — đến giờ đã nhận %d, tải vẫn chạy"},
	{Key: "drill.say.exited", En: "server exited %.2f s after SIGTERM (stop accepting, finish requests, flush)", Vi: "server thoát %.2f s sau SIGTERM (ngừng nhận, làm xong các request, flush)"},
	{Key: "drill.say.mongo_killed", En: "MongoDB killed (SIGKILL) — %d accepted so far", Vi: "MongoDB bị giết (SIGKILL) — đến giờ đã nhận %d"},
	{Key: "drill.say.mongo_back", En: "MongoDB restarted after %.1f s — %d accepted, %d told to retry later", Vi: "MongoDB khởi động lại sau %.1f s — đã nhận %d, %d lần được bảo thử lại sau"},
	{Key: "drill.say.flowing", En: "writes flowing again %.1f s after the restart", Vi: "ghi chạy lại %.1f s sau khi khởi động lại"},
	{Key: "drill.say.not_flowing", En: "no write persisted within 30 s of the restart", Vi: "trong 30 s sau khi khởi động lại, không lần ghi nào xuống được database"},
	{Key: "drill.say.poison_sent", En: "poison: %d orders sent twice (%d accepted); the second copy of each is a duplicate on a unique index", Vi: "poison: %d đơn hàng gửi hai lần (nhận %d); bản thứ hai của mỗi đơn trùng trên một unique index"},
	{Key: "drill.say.poison_aside", En: "poison: all %d set aside %.2f s after the first was sent (%.2f s after the last)", Vi: "poison: cả %d đã được để riêng, %.2f s sau khi gửi cái đầu tiên (%.2f s sau cái cuối)"},
	{Key: "drill.say.poison_stuck", En: "poison: not all %d refused events set aside within 10 s: are they retried?", Vi: "poison: sau 10 s vẫn chưa để riêng đủ %d event bị từ chối: chúng có đang bị retry không?"},
	{Key: "drill.say.redis_stopped", En: "Redis stopped", Vi: "Redis đã dừng"},
	{Key: "drill.say.redis_started", En: "Redis started again (empty)", Vi: "Redis đã khởi động lại (trống trơn)"},
	{Key: "drill.say.first_hit", En: "first Redis hit %.2f s after the restart", Vi: "lần hit Redis đầu tiên, %.2f s sau khi khởi động lại"},

	// The read drill's table and verdict.
	{Key: "drill.read_header", En: "  phase\tseconds\trequests\treq/s\t5xx\tfail-open/req\tDB queries/req\tRedis hit ratio\t", Vi: "  pha\tgiây\trequest\treq/s\t5xx\tfail-open/req\tDB query/req\thit ratio Redis\t"},
	{Key: "drill.phase_up", En: "Redis up", Vi: "Redis chạy"},
	{Key: "drill.phase_down", En: "Redis down", Vi: "Redis sập"},
	{Key: "drill.phase_back", En: "Redis back", Vi: "Redis trở lại"},
	{Key: "drill.recover", En: "\n  time to recover: %.2f s from Redis's restart to its first hit\n", Vi: "\n  thời gian hồi phục: %.2f s từ lúc Redis khởi động lại tới lần hit đầu tiên\n"},
	{Key: "drill.read_ok", En: "  verdict: 0 5xx — with Redis down every read failed open to PostgreSQL, and the cache came back by itself", Vi: "  kết luận: 0 5xx — lúc Redis sập, mọi lượt đọc đều fail open sang PostgreSQL, và cache tự hồi lại"},
	{Key: "drill.read_bad", En: "  verdict: FAILED — reads answered 5xx (or none were served) while Redis was down", Vi: "  kết luận: KHÔNG QUA — lúc Redis sập, các lượt đọc bị trả 5xx (hoặc không lượt nào được phục vụ)"},

	// The write drill's table: a row's name, then why it matters.
	{Key: "drill.row.accepted", En: "accepted (2xx)", Vi: "nhận (2xx)"},
	{Key: "drill.why.accepted", En: "acknowledged to clients", Vi: "đã xác nhận với client"},
	{Key: "drill.row.persisted", En: "persisted", Vi: "ghi xuống"},
	{Key: "drill.why.persisted", En: "counted in the database afterwards", Vi: "đếm lại trong database sau đó"},
	{Key: "drill.row.duplicates", En: "duplicates absorbed", Vi: "duplicate đã bỏ qua"},
	{Key: "drill.why.duplicates", En: "retried writes found already applied: made no-ops", Vi: "lần ghi được retry mà đã áp dụng rồi: thành no-op"},
	{Key: "drill.why.not_idempotent", En: "$inc is not idempotent: a retry after a lost acknowledgement counts twice", Vi: "$inc không idempotent: retry sau một xác nhận bị mất sẽ cộng hai lần"},
	{Key: "drill.row.retries", En: "flush retries", Vi: "flush retry"},
	{Key: "drill.why.retries", En: "batches written again after a database error", Vi: "batch được ghi lại sau một lỗi database"},
	{Key: "drill.of", En: "%d of %d", Vi: "%d trên %d"},
	{Key: "drill.why.retry_after", En: "buffer full (or closing): come back later, nothing lost", Vi: "buffer đầy (hoặc đang đóng): quay lại sau, không mất gì"},
	{Key: "drill.row.other_5xx", En: "other 5xx", Vi: "5xx khác"},
	{Key: "drill.row.dead_lettered", En: "dead-lettered", Vi: "vào dead letter"},
	{Key: "drill.why.dead_lettered", En: "refused for good (%d orders sent twice: one checkout per order), set aside, never retried", Vi: "bị từ chối vĩnh viễn (%d đơn hàng gửi hai lần: mỗi đơn chỉ checkout một lần), để riêng, không bao giờ retry"},
	{Key: "drill.row.set_aside", En: "set aside after", Vi: "để riêng sau"},
	{Key: "drill.why.set_aside", En: "from the first poison event sent to the last one dead-lettered", Vi: "từ lúc gửi poison event đầu tiên tới lúc cái cuối cùng vào dead letter"},
	{Key: "drill.row.max_queue", En: "max queue depth", Vi: "hàng đợi dài nhất"},
	{Key: "drill.why.max_queue", En: "events waiting in memory at once (bounded by Capacity)", Vi: "số event cùng chờ trong bộ nhớ (Capacity giới hạn nó)"},
	{Key: "drill.row.mongo_down", En: "MongoDB down", Vi: "MongoDB sập"},
	{Key: "drill.why.mongo_down", En: "killed with SIGKILL, then restarted", Vi: "bị giết bằng SIGKILL, rồi khởi động lại"},
	{Key: "drill.row.writes_again", En: "writes again after", Vi: "ghi lại được sau"},
	{Key: "drill.why.writes_again", En: "from the restart to the next persisted write (retry backoff)", Vi: "từ lúc khởi động lại tới lần ghi xuống kế tiếp (backoff của retry)"},
	{Key: "drill.row.drain", En: "time to drain", Vi: "thời gian drain"},
	{Key: "drill.why.drain", En: "SIGTERM → exit: stop accepting, finish requests, flush the buffer", Vi: "SIGTERM → thoát: ngừng nhận, làm xong các request, flush buffer"},

	// The write drill's verdicts.
	{Key: "drill.verdict.dead_lettered", En: "\n  verdict: persisted %d + dead-lettered %d == accepted %d: nothing acknowledged was lost, written twice or retried for ever\n", Vi: "\n  kết luận: ghi xuống %d + vào dead letter %d == nhận %d: không gì đã xác nhận bị mất, bị ghi hai lần hay bị retry mãi\n"},
	{Key: "drill.verdict.exact", En: "\n  verdict: persisted == accepted (%d): nothing acknowledged was lost or written twice\n", Vi: "\n  kết luận: ghi xuống == nhận (%d): không gì đã xác nhận bị mất hay bị ghi hai lần\n"},
	{Key: "drill.verdict.at_least_once", En: "\n  verdict: nothing lost (accepted %d), but %d increments applied TWICE (persisted %d): at-least-once —\n" +
		"           a flush cut by the crash got in, its acknowledgement did not, and the retry applied it again\n", Vi: "\n  kết luận: không mất gì (nhận %d), nhưng %d lần cộng bị áp dụng HAI LẦN (ghi xuống %d): at-least-once —\n" +
		"            một lần flush bị crash cắt ngang đã vào database, xác nhận của nó thì không, và lần retry áp dụng nó thêm lần nữa\n"},
	{Key: "drill.verdict.lost", En: "\n  verdict: LOST %d of %d acknowledged writes (persisted %d ≠ accepted %d)\n", Vi: "\n  kết luận: MẤT %d trên %d lần ghi đã xác nhận (ghi xuống %d ≠ nhận %d)\n"},
	{Key: "drill.verdict.twice", En: "\n  verdict: %d writes applied TWICE (persisted %d ≠ accepted %d): a retried flush whose first attempt got in\n", Vi: "\n  kết luận: %d lần ghi bị áp dụng HAI LẦN (ghi xuống %d ≠ nhận %d): một lần flush được retry trong khi lần đầu đã vào database\n"},
	{Key: "drill.verdict.unproven", En: "\n  verdict: NOT proven (accepted %d, other 5xx %d)\n", Vi: "\n  kết luận: CHƯA chứng minh được (nhận %d, 5xx khác %d)\n"},

	// The harness's errors a learner reads when a run cannot go on: a server or
	// a database that did not start, a load tool that measured nothing, a
	// setting out of range. Each says what happened and, when it can, what to
	// do; flags, variables and commands stay as typed.

	// Servers and databases starting (internal/harness/proc, stack, drill, balancer).
	{Key: "drill.mongo_exited", En: "private MongoDB exited during start-up (log: %s)", Vi: "MongoDB riêng thoát ngay lúc khởi động (log: %s)"},
	{Key: "drill.mongo_silent", En: "private MongoDB on %s did not answer within 30 s", Vi: "MongoDB riêng ở %s không trả lời trong vòng 30 s"},
	{Key: "drill.redis_silent", En: "private redis-server on %s did not answer within 10 s", Vi: "redis-server riêng ở %s không trả lời trong vòng 10 s"},
}

func init() { messages.Add(texts) }
