package messages

// make step-N drill's lines (cmd/workshop/drill.go, internal/harness/drill):
// its progress, its table and its verdict, said to a person. The drill's
// results file (its note, the moments on its chart) stays English, as every
// stored line does. Counter names, HTTP statuses and signals (5xx, 503 +
// Retry-After, SIGTERM, SIGKILL) are written as typed in both languages.
// Data table: English beside Vietnamese, one key a line, so a translator
// reads the pair; add puts it into both catalogues.
var drillLines = []line{
	// The heading and the closing lines (cmd/workshop/drill.go).
	{"drill.none", "step %d has no drill (steps %s do)", "bước %d không có bài diễn tập (các bước %s có)"},
	{"drill.yours", "your code", "code của bạn"},
	{"drill.reference", "the reference (SOLUTION=1)", "lời giải mẫu (SOLUTION=1)"},
	{"drill.write_start", "step %d drill — %s, %s, on a private %s (server log: %s)\n",
		"diễn tập bước %d — %s, %s, trên một %s riêng (log của server: %s)\n"},
	{"drill.poison_part", ", %d poison events (refused for good)", ", %d poison event (bị từ chối vĩnh viễn)"},
	{"drill.write_head", "\nstep %d drill — %d clients on %s; MongoDB killed and restarted%s, then SIGTERM to the server mid-load\n\n",
		"\ndiễn tập bước %d — %d client vào %s; MongoDB bị giết rồi khởi động lại%s, sau đó SIGTERM gửi tới server giữa lúc có tải\n\n"},
	{"drill.read_start", "step 2 drill — %s, %s; a private Redis on %s (server log: %s)\n",
		"diễn tập bước 2 — %s, %s; một Redis riêng ở %s (log của server: %s)\n"},
	{"drill.read_head", "\nstep 2 drill — %d clients on %s; Redis stopped for %s, then started again (empty)\n\n",
		"\ndiễn tập bước 2 — %d client vào %s; Redis bị dừng %s, rồi khởi động lại (trống trơn)\n\n"},
	{"drill.wrote", "\n  wrote %s — `make report` draws the drill over time\n",
		"\n  đã ghi %s — `make report` vẽ diễn biến của bài diễn tập theo thời gian\n"},
	{"drill.write_failed", "the drill failed: persisted %d + dead-lettered %d, accepted %d, other 5xx %d",
		"bài diễn tập không qua: ghi xuống %d + vào dead letter %d, nhận %d, 5xx khác %d"},
	{"drill.read_failed", "the drill failed: reads answered 5xx while Redis was down",
		"bài diễn tập không qua: lúc Redis sập, các lượt đọc bị trả 5xx"},
	{"drill.guard_events", "retried events already stored: the _id set at accept time makes them no-ops",
		"event được retry mà đã lưu rồi: _id gán lúc nhận biến chúng thành no-op"},
	{"drill.guard_counters", "increments of a retried flush already applied: the batch number in each counter makes them no-ops",
		"lần cộng của một flush được retry mà đã áp dụng rồi: số batch trong mỗi counter biến chúng thành no-op"},

	// Progress, timestamped (internal/harness/drill).
	{"drill.say.load", "load: %d clients", "tải: %d client"},
	{"drill.say.load_cached", "load: %d clients on the cached route", "tải: %d client vào route có cache"},
	{"drill.say.sigterm", "SIGTERM to the server — %d accepted so far, load still on", "SIGTERM gửi tới server — đến giờ đã nhận %d, tải vẫn chạy"},
	{"drill.say.exited", "server exited %.2f s after SIGTERM (stop accepting, finish requests, flush)",
		"server thoát %.2f s sau SIGTERM (ngừng nhận, làm xong các request, flush)"},
	{"drill.say.mongo_killed", "MongoDB killed (SIGKILL) — %d accepted so far", "MongoDB bị giết (SIGKILL) — đến giờ đã nhận %d"},
	{"drill.say.mongo_back", "MongoDB restarted after %.1f s — %d accepted, %d told to retry later",
		"MongoDB khởi động lại sau %.1f s — đã nhận %d, %d lần được bảo thử lại sau"},
	{"drill.say.flowing", "writes flowing again %.1f s after the restart", "ghi chạy lại %.1f s sau khi khởi động lại"},
	{"drill.say.not_flowing", "no write persisted within 30 s of the restart", "trong 30 s sau khi khởi động lại, không lần ghi nào xuống được database"},
	{"drill.say.poison_sent", "poison: %d orders sent twice (%d accepted); the second copy of each is a duplicate on a unique index",
		"poison: %d đơn hàng gửi hai lần (nhận %d); bản thứ hai của mỗi đơn trùng trên một unique index"},
	{"drill.say.poison_aside", "poison: all %d set aside %.2f s after the first was sent (%.2f s after the last)",
		"poison: cả %d đã được để riêng, %.2f s sau khi gửi cái đầu tiên (%.2f s sau cái cuối)"},
	{"drill.say.poison_stuck", "poison: not all %d refused events set aside within 10 s: are they retried?",
		"poison: sau 10 s vẫn chưa để riêng đủ %d event bị từ chối: chúng có đang bị retry không?"},
	{"drill.say.redis_stopped", "Redis stopped", "Redis đã dừng"},
	{"drill.say.redis_started", "Redis started again (empty)", "Redis đã khởi động lại (trống trơn)"},
	{"drill.say.first_hit", "first Redis hit %.2f s after the restart", "lần hit Redis đầu tiên, %.2f s sau khi khởi động lại"},

	// The read drill's table and verdict.
	{"drill.read_header", "  phase\tseconds\trequests\treq/s\t5xx\tfail-open/req\tDB queries/req\tRedis hit ratio\t",
		"  pha\tgiây\trequest\treq/s\t5xx\tfail-open/req\tDB query/req\thit ratio Redis\t"},
	{"drill.phase_up", "Redis up", "Redis chạy"},
	{"drill.phase_down", "Redis down", "Redis sập"},
	{"drill.phase_back", "Redis back", "Redis trở lại"},
	{"drill.recover", "\n  time to recover: %.2f s from Redis's restart to its first hit\n",
		"\n  thời gian hồi phục: %.2f s từ lúc Redis khởi động lại tới lần hit đầu tiên\n"},
	{"drill.read_ok", "  verdict: 0 5xx — with Redis down every read failed open to PostgreSQL, and the cache came back by itself",
		"  kết luận: 0 5xx — lúc Redis sập, mọi lượt đọc đều fail open sang PostgreSQL, và cache tự hồi lại"},
	{"drill.read_bad", "  verdict: FAILED — reads answered 5xx (or none were served) while Redis was down",
		"  kết luận: KHÔNG QUA — lúc Redis sập, các lượt đọc bị trả 5xx (hoặc không lượt nào được phục vụ)"},

	// The write drill's table: a row's name, then why it matters.
	{"drill.row.accepted", "accepted (2xx)", "nhận (2xx)"},
	{"drill.why.accepted", "acknowledged to clients", "đã xác nhận với client"},
	{"drill.row.persisted", "persisted", "ghi xuống"},
	{"drill.why.persisted", "counted in the database afterwards", "đếm lại trong database sau đó"},
	{"drill.row.duplicates", "duplicates absorbed", "duplicate đã bỏ qua"},
	{"drill.why.duplicates", "retried writes found already applied: made no-ops", "lần ghi được retry mà đã áp dụng rồi: thành no-op"},
	{"drill.why.not_idempotent", "$inc is not idempotent: a retry after a lost acknowledgement counts twice",
		"$inc không idempotent: retry sau một xác nhận bị mất sẽ cộng hai lần"},
	{"drill.row.retries", "flush retries", "flush retry"},
	{"drill.why.retries", "batches written again after a database error", "batch được ghi lại sau một lỗi database"},
	{"drill.of", "%d of %d", "%d trên %d"},
	{"drill.why.retry_after", "buffer full (or closing): come back later, nothing lost", "buffer đầy (hoặc đang đóng): quay lại sau, không mất gì"},
	{"drill.row.other_5xx", "other 5xx", "5xx khác"},
	{"drill.row.dead_lettered", "dead-lettered", "vào dead letter"},
	{"drill.why.dead_lettered", "refused for good (%d orders sent twice: one checkout per order), set aside, never retried",
		"bị từ chối vĩnh viễn (%d đơn hàng gửi hai lần: mỗi đơn chỉ checkout một lần), để riêng, không bao giờ retry"},
	{"drill.row.set_aside", "set aside after", "để riêng sau"},
	{"drill.why.set_aside", "from the first poison event sent to the last one dead-lettered", "từ lúc gửi poison event đầu tiên tới lúc cái cuối cùng vào dead letter"},
	{"drill.row.max_queue", "max queue depth", "hàng đợi dài nhất"},
	{"drill.why.max_queue", "events waiting in memory at once (bounded by Capacity)", "số event cùng chờ trong bộ nhớ (Capacity giới hạn nó)"},
	{"drill.row.mongo_down", "MongoDB down", "MongoDB sập"},
	{"drill.why.mongo_down", "killed with SIGKILL, then restarted", "bị giết bằng SIGKILL, rồi khởi động lại"},
	{"drill.row.writes_again", "writes again after", "ghi lại được sau"},
	{"drill.why.writes_again", "from the restart to the next persisted write (retry backoff)", "từ lúc khởi động lại tới lần ghi xuống kế tiếp (backoff của retry)"},
	{"drill.row.drain", "time to drain", "thời gian drain"},
	{"drill.why.drain", "SIGTERM → exit: stop accepting, finish requests, flush the buffer", "SIGTERM → thoát: ngừng nhận, làm xong các request, flush buffer"},

	// The write drill's verdicts.
	{"drill.verdict.dead_lettered", "\n  verdict: persisted %d + dead-lettered %d == accepted %d: nothing acknowledged was lost, written twice or retried for ever\n",
		"\n  kết luận: ghi xuống %d + vào dead letter %d == nhận %d: không gì đã xác nhận bị mất, bị ghi hai lần hay bị retry mãi\n"},
	{"drill.verdict.exact", "\n  verdict: persisted == accepted (%d): nothing acknowledged was lost or written twice\n",
		"\n  kết luận: ghi xuống == nhận (%d): không gì đã xác nhận bị mất hay bị ghi hai lần\n"},
	{"drill.verdict.at_least_once", "\n  verdict: nothing lost (accepted %d), but %d increments applied TWICE (persisted %d): at-least-once —\n" +
		"           a flush cut by the crash got in, its acknowledgement did not, and the retry applied it again\n",
		"\n  kết luận: không mất gì (nhận %d), nhưng %d lần cộng bị áp dụng HAI LẦN (ghi xuống %d): at-least-once —\n" +
			"            một lần flush bị crash cắt ngang đã vào database, xác nhận của nó thì không, và lần retry áp dụng nó thêm lần nữa\n"},
	{"drill.verdict.lost", "\n  verdict: LOST %d of %d acknowledged writes (persisted %d ≠ accepted %d)\n",
		"\n  kết luận: MẤT %d trên %d lần ghi đã xác nhận (ghi xuống %d ≠ nhận %d)\n"},
	{"drill.verdict.twice", "\n  verdict: %d writes applied TWICE (persisted %d ≠ accepted %d): a retried flush whose first attempt got in\n",
		"\n  kết luận: %d lần ghi bị áp dụng HAI LẦN (ghi xuống %d ≠ nhận %d): một lần flush được retry trong khi lần đầu đã vào database\n"},
	{"drill.verdict.unproven", "\n  verdict: NOT proven (accepted %d, other 5xx %d)\n",
		"\n  kết luận: CHƯA chứng minh được (nhận %d, 5xx khác %d)\n"},
}

func init() { add(drillLines) }
