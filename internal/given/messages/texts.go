package messages

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []Line{
	// The configurations' errors (internal/harness/config.FromEnv, the CLI's;
	// internal/given/serverenv, the step server's): each names the variable,
	// the value as typed, and what it accepts.

	{Key: "config.bad_choice", En: "%s=%q: want one of %s", Vi: "%s=%q: cần một trong %s"},
	{Key: "config.bad_switch", En: "%s=%q: want on or off (1 or 0)", Vi: "%s=%q: cần on hoặc off (1 hoặc 0)"},
	{Key: "config.bad_addr", En: "PEAKLOAD_ADDR=%q: want host:port (127.0.0.1:8080)", Vi: "PEAKLOAD_ADDR=%q: cần dạng host:port (127.0.0.1:8080)"},

	// The bench command's own lines (cmd/workshop/bench.go).
	{Key: "bench.bad_count", En: "%s=%q: want a positive integer", Vi: "%s=%q: cần một số nguyên dương"},
	{Key: "config.bad_port", En: "%s=%q: want a port number from 1 to 65535", Vi: "%s=%q: cần số cổng từ 1 đến 65535"},

	// Seeding the catalogue, once (internal/given/catalog).
	{Key: "seed.start", En: "seeding %d items, %d streamers, %d views (once; later runs reuse it)…", Vi: "đang seed catalog: %d item, %d streamer, %d lượt xem (chỉ một lần; các lần chạy sau dùng lại)…"},
	{Key: "seed.copying", En: "  %-10s %9d rows  copying…", Vi: "  %-10s %9d dòng  đang copy…"},
	{Key: "seed.table", En: "  %-10s %9d rows  %5.1fs", Vi: "  %-10s %9d dòng  %5.1fs"},
	{Key: "seed.indexing", En: "  indexes + analyze        …", Vi: "  index + analyze          …"},
	{Key: "seed.indexed", En: "  indexes + analyze        %5.1fs", Vi: "  index + analyze          %5.1fs"},
	{Key: "seed.done", En: "seeded in %.1fs", Vi: "nạp xong dữ liệu mẫu trong %.1fs"},
}

func init() { Add(texts) }
