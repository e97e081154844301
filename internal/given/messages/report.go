package messages

// reportWords are the words of `make report`'s HTML page (issue 34 §3): its
// headings, its tables' columns, its verdicts and captions, so that
// PEAKLOAD_LANG=vi renders the page in Vietnamese. The slide decks' figures,
// drawn by the same package, stay English: the English decks include them.
//
// Data table: the report page's words, English beside Vietnamese, key for key.
var reportWords = []line{
	{"report.title", "peakload — the articles' claims beside our measurements", "peakload — claim của các bài viết, đặt cạnh số đo của workshop"},
	{"report.from", "From %s. Every figure below is computed from those files; the article's figures are quotations.",
		"Lấy từ %s. Mọi con số dưới đây đều tính từ các file đó; con số của bài viết là trích nguyên văn."},
	{"report.from_latest", "the latest run of each step (results/step-N/latest.json)", "lần chạy mới nhất của từng bước (results/step-N/latest.json)"},
	{"report.from_reference", "the reference runs (results/reference/step-N.json)", "các lần chạy tham chiếu (results/reference/step-N.json)"},
	{"report.every_claim", "Every claim of the four articles", "Mọi claim của bốn bài viết"},
	{"report.step", "Step %d — %s", "Bước %d — %s"},
	{"report.no_run", "No run yet: <code>make step-%d bench</code>.", "Chưa chạy lần nào: <code>make step-%d bench</code>."},
	{"report.series", "During the run: each variant interval by interval (%s), warm-up and drain included.",
		"Diễn biến trong lúc chạy: mỗi biến thể, theo từng khoảng thời gian (%s), tính cả warm-up và drain."},
	{"report.every_second", "one point per second", "mỗi giây một điểm"},
	{"report.every_ms", "one point per %g ms", "mỗi %g ms một điểm"},
	{"report.drill", "The drill (<code>make step-%d drill</code>), over time", "Bài diễn tập (<code>make step-%d drill</code>) theo thời gian"},
	{"report.drill_caption", "%s, with the drill's moments marked.", "%s, có đánh dấu các mốc của bài diễn tập."},
	{"report.note", "note: %s", "ghi chú: %s"},
	{"report.conditions", "%s · %d CPUs (%s) · %s · %s stack · %s%s", "%s · %d CPU (%s) · %s · stack %s · %s%s"},
	{"report.not_pinned", "server not pinned", "server không ghim CPU"},
	{"report.load_pinned", "load on CPU %v, the service's CPUs its own", "tải chạy trên CPU %v, còn service dùng CPU của riêng nó"},
	{"report.pinned", "server pinned to CPU %v, GOMAXPROCS=%d", "server ghim vào CPU %v, GOMAXPROCS=%d"},
	{"report.solution", ", reference solution (SOLUTION=1)", ", lời giải mẫu (SOLUTION=1)"},
	// The claims table.
	{"report.col.step", "step", "bước"},
	{"report.col.claim", "claim", "claim"},
	{"report.col.verdict", "verdict", "kết luận"},
	{"report.col.whose", "the claim (whose)", "claim (của ai)"},
	{"report.col.ours", "ours", "số đo"},
	{"report.tolerance", "tolerance: %s", "dung sai: %s"},
	{"report.verdict.busy", "not judged: the machine was busy", "không xét: máy đang bận"},
	{"report.verdict.tool", "not judged: the load tool limited a row", "không xét: công cụ tạo tải tự chạm giới hạn ở một hàng"},
	{"report.verdict.unjudged", "not judged: its rows did not run or did not count", "không xét: các hàng của nó không chạy hoặc không đếm được"},
	{"report.verdict.not_measured", "not measured", "chưa đo"},
	{"report.verdict.reproduced", "reproduced", "tái hiện được"},
	{"report.verdict.not_reproduced", "NOT reproduced", "KHÔNG tái hiện được"},
	// The runs table: a counter of the step's own (Extra) keeps its name.
	{"report.col.variant", "variant", "biến thể"},
	{"report.col.tool", "tool", "công cụ"},
	{"report.col.errors", "errors", "lỗi"},
	{"report.col.public", "bytes / req (public)", "byte / req (public)"},
	{"report.col.db", "DB queries / req", "DB query / req"},
	{"report.col.redis", "Redis bytes / req", "byte Redis / req"},
	{"report.col.cpu", "server CPU µs / req", "µs CPU của server / req"},
}

func init() { add(reportWords) }
