package messages

// make step-N profile's lines (cmd/workshop/profile.go): what it profiles,
// the titles over pprof's own tables (pprof prints English: it is Go's
// tool), the two-line summary and where the files are. Commands stay as
// typed, in both languages.
// Data table: English beside Vietnamese, one key a line, so a translator
// reads the pair; add puts it into both catalogues.
var profileLines = []line{
	{"profile.start", "profiling step %d, variant %s (%s): %d s under %d VUs, server on %d CPU(s)…\n",
		"đang profile bước %d, biến thể %s (%s): %d s dưới tải của %d VU, server trên %d CPU…\n"},
	{"profile.cpu_title", "CPU: where the server's CPU time went", "CPU: thời gian CPU của server tiêu vào đâu"},
	{"profile.mutex_title", "lock contention: who made other requests wait (sync frames hidden, so the waiting is charged to the code holding the lock)",
		"tranh chấp lock: ai bắt các request khác phải chờ (frame của sync được ẩn, nên thời gian chờ tính cho đoạn code đang giữ lock)"},
	{"profile.short", "\n=== in short (server on %d CPU(s), %d s)\n", "\n=== tóm lại (server trên %d CPU, %d s)\n"},
	{"profile.cpu_idle", "CPU:   no samples (was the server idle?)", "CPU:   không có sample nào (server ngồi chơi chăng?)"},
	{"profile.cpu_here", "here:\n         %s", "ở đây:\n         %s"},
	{"profile.cpu_outside", "outside the workshop's code — the runtime, net/http, the framework, the kernel: the top above says where",
		"nằm ngoài code của workshop — runtime, net/http, framework, kernel: bảng top ở trên cho biết chỗ nào"},
	{"profile.cpu", "CPU:   %.1f s of CPU in %.1f s = %.2f CPUs busy; %.0f%% of it %s",
		"CPU:   %.1f s CPU trong %.1f s = %.2f CPU bận; %.0f%% trong số đó %s"},
	{"profile.locks_none", "locks: no request waited on a lock", "lock: không request nào phải chờ lock"},
	{"profile.lock_here", "a lock held here:\n         %s", "một lock giữ ở đây:\n         %s"},
	{"profile.lock_outside", "locks outside the workshop's code (see the top above)", "các lock nằm ngoài code của workshop (xem bảng top ở trên)"},
	{"profile.locks", "locks: requests spent %.1f s waiting for locks in %d s (%.1f requests waiting at any moment); %.0f%% of it on %s",
		"lock: các request mất %.1f s chờ lock trong %d s (lúc nào cũng có %.1f request đang chờ); %.0f%% trong số đó là vì %s"},
	{"profile.graph", "\ncall graph: %s (open it in a browser; box size = CPU time)\n",
		"\ncall graph: %s (mở bằng trình duyệt; ô càng to càng tốn CPU)\n"},
	{"profile.no_graphviz", "\nno graphviz for a call graph (`make doctor` says how to get it). Browse the profile, flame graph included, with\n  go tool pprof -http 127.0.0.1:8081 %s %s\n",
		"\nkhông có graphviz để vẽ call graph (`make doctor` chỉ cách cài). Xem profile, có cả flame graph, bằng\n  go tool pprof -http 127.0.0.1:8081 %s %s\n"},
	{"profile.files", "profiles: %s, %s (open either with go tool pprof -http 127.0.0.1:8081 %s <file>)\n",
		"các profile: %s, %s (mở file nào cũng được bằng go tool pprof -http 127.0.0.1:8081 %s <file>)\n"},
	{"profile.no_variant", "VARIANT=%s: step %d has no such variant (have %s)", "VARIANT=%s: bước %d không có biến thể này (chỉ có %s)"},
}

func init() { add(profileLines) }
