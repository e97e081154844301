package messages

// `workshop help` (cmd/workshop's command table): one line per verb, keyed
// "help.<verb>", in both languages side by side, so a Vietnamese room's
// first screen is Vietnamese too (issue 34 §2). "\n" starts an indented
// continuation line; flags, variables and paths stay as typed.
// Data table: English beside Vietnamese, one key a line, so a translator
// reads the pair; add puts it into both catalogues.
var helpWords = []line{
	{"help.usage", "usage: workshop <command> [flags]", "cách dùng: workshop <lệnh> [flag]"},
	{"help.dev", "The maintainer's and the room's preparation (make test, test-latency, docs, mutants, handout):",
		"Việc của người bảo trì và phần chuẩn bị phòng học (make test, test-latency, docs, mutants, handout):"},
	{"help.doctor", "what is installed / missing, and how to get it", "máy đã cài gì / thiếu gì, và cài bằng cách nào"},
	{"help.deps", "install the missing Debian/Ubuntu packages (root)", "cài các gói Debian/Ubuntu còn thiếu (cần root)"},
	{"help.up", "start postgres, redis, mongo (STACK=auto|native|compose)", "bật postgres, redis, mongo (STACK=auto|native|compose)"},
	{"help.down", "stop what up started", "tắt những gì up đã bật"},
	{"help.seed", "create and load the catalogue (skipped when present)", "tạo và nạp catalog (bỏ qua nếu đã có)"},
	{"help.bench", "run step N's scenario and print the table", "chạy kịch bản của bước N và in bảng"},
	{"help.step", "the lesson's summary, then its check", "tóm tắt bài học, rồi chạy check"},
	{"help.check", "the step's check (SOLUTION=1: on the reference)", "check của bước (SOLUTION=1: trên lời giải mẫu)"},
	{"help.watch", "the check again on every save of the step's files (Ctrl-C stops)", "chạy lại check mỗi lần lưu file của bước (Ctrl-C để dừng)"},
	{"help.reset", "restore the untouched exercise.go (yours kept in .workshop/backup/)", "trả exercise.go về như lúc đầu (bài của bạn được giữ trong .workshop/backup/)"},
	{"help.run", "serve step N on 127.0.0.1:8080 with its services", "chạy server bước N trên 127.0.0.1:8080 cùng các service của nó"},
	{"help.hint", "the next hint of the step's exercise", "gợi ý tiếp theo cho bài tập của bước"},
	{"help.diff", "what the reference adds over the exercise", "lời giải mẫu thêm gì so với bài tập"},
	{"help.profile", "CPU and mutex profiles of step N under load", "profile CPU và mutex của bước N khi chịu tải"},
	{"help.drill", "kill a database (and the server) under load, count what survived (2, 6, 7)", "giết một database (và cả server) khi đang chịu tải, đếm những gì còn sống sót (2, 6, 7)"},
	{"help.progress", "per step: solved?, hints seen, the last bench's verdicts (-format json|markdown, FORMAT=)",
		"mỗi bước: xong chưa, đã xem mấy gợi ý, kết luận của lần bench gần nhất (-format json|markdown, FORMAT=)"},
	{"help.grade", "CI on a learner's fork: the checks of the steps whose exercise.go changed, then\nthe progress table into the job summary ($GITHUB_STEP_SUMMARY)",
		"CI trên fork của học viên: check của các bước có exercise.go bị sửa, rồi\nbảng progress vào job summary ($GITHUB_STEP_SUMMARY)"},
	{"help.probe", "the bench's loops, table and results on a service of yours (loopback unless -allow-remote)",
		"vòng đo, bảng và file kết quả của bench trên một service của bạn (chỉ loopback, trừ khi -allow-remote)"},
	{"help.audit", "the steps' practices (the articles' and ours) checked from outside: one verdict each, with its evidence",
		"các practice mà các bước dạy (của bốn bài và của workshop), kiểm tra từ bên ngoài: mỗi practice một kết luận, kèm bằng chứng"},
	{"help.compare", "every step's latest result against the articles;\n-a FILE -b FILE (A= B=): two runs of a step side by side\n-dir FOLDER (DIR=): many people's results, a table per step, a row per person",
		"kết quả mới nhất của mọi bước so với các bài viết;\n-a FILE -b FILE (A= B=): hai lần chạy của một bước đặt cạnh nhau\n-dir FOLDER (DIR=): kết quả của nhiều người, mỗi bước một bảng, mỗi người một hàng"},
	{"help.report", "one HTML page of every chart and claim (results/report/);\n-ref: the reference runs, and the slides' figures",
		"một trang HTML với mọi biểu đồ và claim (results/report/);\n-ref: các lần chạy tham chiếu, và các hình của slide"},
	{"help.worker", "the live-stats worker alone (PEAKLOAD_POSTGRES_URL)", "chỉ chạy worker live-stats (PEAKLOAD_POSTGRES_URL)"},
	{"help.latency-proxy", "forward -target with -delay added per round trip (LATENCY)", "chuyển tiếp tới -target, cộng thêm -delay mỗi round trip (LATENCY)"},
}

func init() { add(helpWords) }
