package messages

// The configurations' errors (internal/harness/config.FromEnv, the CLI's;
// internal/given/serverenv, the step server's): each names the variable,
// the value as typed, and what it accepts.
var configLines = []line{
	{"config.bad_choice", "%s=%q: want one of %s", "%s=%q: cần một trong %s"},
	{"config.bad_switch", "%s=%q: want on or off (1 or 0)", "%s=%q: cần on hoặc off (1 hoặc 0)"},
	{"config.bad_bool", "%s=%q: want 1 or 0 (true or false)", "%s=%q: cần 1 hoặc 0 (true hoặc false)"},
	{"config.bad_flag_duration", "%s=%q: want a duration like 10s or 500ms", "%s=%q: cần một khoảng thời gian, ví dụ 10s hoặc 500ms"},
	{"config.bad_addr", "PEAKLOAD_ADDR=%q: want host:port (127.0.0.1:8080)", "PEAKLOAD_ADDR=%q: cần dạng host:port (127.0.0.1:8080)"},
	{"config.bad_seed", "PEAKLOAD_SEED=%q: want the number a failing run printed", "PEAKLOAD_SEED=%q: cần đúng con số mà lần chạy bị fail đã in ra"},
}

func init() { add(configLines) }
