package report

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// reportWords are the words of `make report`'s HTML page (issue 34 §3): its
	// headings, its tables' columns, its verdicts and captions, so that
	// PEAKLOAD_LANG=vi renders the page in Vietnamese. The slide decks' figures,
	// drawn by the same package, stay English: the English decks include them.
	//

	{Key: "report.title", En: "peakload — the articles' claims beside our measurements", Vi: "peakload — claim của các bài viết, đặt cạnh số đo của workshop"},
	{Key: "report.from", En: "From %s. Every figure below is computed from those files; the article's figures are quotations.", Vi: "Lấy từ %s. Mọi con số dưới đây đều tính từ các file đó; con số của bài viết là trích nguyên văn."},
	{Key: "report.from_latest", En: "the latest run of each step (results/step-N/latest.json)", Vi: "lần chạy mới nhất của từng bước (results/step-N/latest.json)"},
	{Key: "report.from_reference", En: "the reference runs (results/reference/step-N.json)", Vi: "các lần chạy tham chiếu (results/reference/step-N.json)"},
	{Key: "report.every_claim", En: "Every claim of the four articles", Vi: "Mọi claim của bốn bài viết"},
	{Key: "report.step", En: "Step %d — %s", Vi: "Bước %d — %s"},
	{Key: "report.no_run", En: "No run yet: <code>make step-%d bench</code>.", Vi: "Chưa chạy lần nào: <code>make step-%d bench</code>."},
	{Key: "report.series", En: "During the run: each variant interval by interval (%s), warm-up and drain included.", Vi: "Diễn biến trong lúc chạy: mỗi biến thể, theo từng khoảng thời gian (%s), tính cả warm-up và drain."},
	{Key: "report.every_second", En: "one point per second", Vi: "mỗi giây một điểm"},
	{Key: "report.every_ms", En: "one point per %g ms", Vi: "mỗi %g ms một điểm"},
	{Key: "report.drill", En: "The drill (<code>make step-%d drill</code>), over time", Vi: "Bài diễn tập (<code>make step-%d drill</code>) theo thời gian"},
	{Key: "report.drill_caption", En: "%s, with the drill's moments marked.", Vi: "%s, có đánh dấu các mốc của bài diễn tập."},
	{Key: "report.note", En: "note: %s", Vi: "ghi chú: %s"},
	{Key: "report.conditions", En: "%s · %d CPUs (%s) · %s · %s stack · %s%s", Vi: "%s · %d CPU (%s) · %s · stack %s · %s%s"},
	{Key: "report.not_pinned", En: "server not pinned", Vi: "server không ghim CPU"},
	{Key: "report.load_pinned", En: "load on CPU %v, the service's CPUs its own", Vi: "tải chạy trên CPU %v, còn service dùng CPU của riêng nó"},
	{Key: "report.pinned", En: "server pinned to CPU %v, GOMAXPROCS=%d", Vi: "server ghim vào CPU %v, GOMAXPROCS=%d"},
	{Key: "report.solution", En: ", reference solution (SOLUTION=1)", Vi: ", lời giải mẫu (SOLUTION=1)"},

	// The claims table.
	{Key: "report.col.step", En: "step", Vi: "bước"},
	{Key: "report.col.claim", En: "claim", Vi: "claim"},
	{Key: "report.col.verdict", En: "verdict", Vi: "kết luận"},
	{Key: "report.col.whose", En: "the claim (whose)", Vi: "claim (của ai)"},
	{Key: "report.col.ours", En: "ours", Vi: "số đo"},
	{Key: "report.tolerance", En: "tolerance: %s", Vi: "dung sai: %s"},
	{Key: "report.verdict.busy", En: "not judged: the machine was busy", Vi: "không xét: máy đang bận"},
	{Key: "report.verdict.tool", En: "not judged: the load tool limited a row", Vi: "không xét: công cụ tạo tải tự chạm giới hạn ở một hàng"},
	{Key: "report.verdict.unjudged", En: "not judged: its rows did not run or did not count", Vi: "không xét: các hàng của nó không chạy hoặc không đếm được"},
	{Key: "report.verdict.not_measured", En: "not measured", Vi: "chưa đo"},
	{Key: "report.verdict.reproduced", En: "reproduced", Vi: "tái hiện được"},
	{Key: "report.verdict.not_reproduced", En: "NOT reproduced", Vi: "KHÔNG tái hiện được"},

	// The runs table: a counter of the step's own (Extra) keeps its name.
	{Key: "report.col.variant", En: "variant", Vi: "biến thể"},
	{Key: "report.col.tool", En: "tool", Vi: "công cụ"},
	{Key: "report.col.errors", En: "errors", Vi: "lỗi"},
	{Key: "report.col.public", En: "bytes / req (public)", Vi: "byte / req (public)"},
	{Key: "report.col.db", En: "DB queries / req", Vi: "DB query / req"},
	{Key: "report.col.redis", En: "Redis bytes / req", Vi: "byte Redis / req"},
	{Key: "report.col.cpu", En: "server CPU µs / req", Vi: "µs CPU của server / req"},
}

func init() { messages.Add(texts) }
