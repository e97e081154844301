package config

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// The configurations' errors (internal/harness/config.FromEnv, the CLI's;
	// internal/given/serverenv, the step server's): each names the variable,
	// the value as typed, and what it accepts.

	{Key: "config.bad_bool", En: "%s=%q: want 1 or 0 (true or false)", Vi: "%s=%q: cần 1 hoặc 0 (true hoặc false)"},
	{Key: "config.bad_flag_duration", En: "%s=%q: want a duration like 10s or 500ms", Vi: "%s=%q: cần một khoảng thời gian, ví dụ 10s hoặc 500ms"},
	{Key: "config.bad_seed", En: "PEAKLOAD_SEED=%q: want the number a failing run printed", Vi: "PEAKLOAD_SEED=%q: cần đúng con số mà lần chạy bị fail đã in ra"},

	// Steps, diff, run (cmd/workshop/steps.go).
	{Key: "step.bad_solution", En: "SOLUTION=%q: want 1 (the reference) or 0 (your code)", Vi: "SOLUTION=%q: cần 1 (lời giải mẫu) hoặc 0 (code của bạn)"},

	// make doctor (cmd/workshop/doctor.go).
	{Key: "doctor.optional", En: "  optional %-13s %s\n           %13s %s\n", Vi: "  tuỳ chọn %-13s %s\n           %13s %s\n"},
	{Key: "doctor.missing", En: "  MISSING  %-13s %s\n           %13s %s\n", Vi: "  THIẾU    %-13s %s\n           %13s %s\n"},

	// The bench command's own lines (cmd/workshop/bench.go).
	{Key: "bench.bad_duration", En: "DURATION=%q: want a duration like 10s", Vi: "DURATION=%q: cần một khoảng thời gian, ví dụ 10s"},
	{Key: "bench.bad_tool", En: "unknown TOOL=%q (want go, wrk or k6)", Vi: "TOOL=%q không hợp lệ (cần go, wrk hoặc k6)"},
	{Key: "config.bad_runs", En: "RUNS=%q: want a number of rounds from 1 to 20", Vi: "RUNS=%q: cần số vòng từ 1 đến 20"},
	{Key: "config.bad_arrival", En: "ARRIVAL=%q: want rate (an open loop at RATE req/s) or closed", Vi: "ARRIVAL=%q: cần rate (tải vòng hở, RATE req/s) hoặc closed"},
	{Key: "config.rate_needs_open", En: "RATE is the open loop's schedule: add ARRIVAL=rate", Vi: "RATE là lịch gửi của tải vòng hở: thêm ARRIVAL=rate"},
	{Key: "config.bad_rate", En: "ARRIVAL=rate needs RATE=<requests per second>, got RATE=%q", Vi: "ARRIVAL=rate cần RATE=<số request mỗi giây>, nhận được RATE=%q"},
	{Key: "config.bad_server_url", En: "PEAKLOAD_SERVER_URL=%q: want http://host:port", Vi: "PEAKLOAD_SERVER_URL=%q: cần dạng http://host:port"},
}

func init() { messages.Add(texts) }
