package messages

// make grade's lines (cmd/workshop/grade.go): the checks it ran, written
// into the GitHub job summary of a learner's fork (or printed). They follow
// PEAKLOAD_LANG like every line for a person — English unless the fork sets
// it (.github/workflows/progress.yml passes the repository variable on) —
// while results/progress.json, the file a lead collects, keeps English.
// Data table: English beside Vietnamese, one key a line, so a translator
// reads the pair; add puts it into both catalogues.
var gradeLines = []line{
	{"grade.head", "### Checks run (%s)\n\n%s\n\n", "### Các check đã chạy (%s)\n\n%s\n\n"},
	{"grade.line", "- step %d check %s", "- check bước %d %s"},
	{"grade.passed", "passed", "đã pass"},
	{"grade.failed", "**failed**: %s", "**không pass**: %s"},
	{"grade.none", "- no check run: %s", "- không chạy check nào: %s"},
	{"grade.all", "every exercise step, as asked", "mọi bước có bài tập, theo yêu cầu"},
	{"grade.asked", "the steps asked for", "các bước được yêu cầu"},
	{"grade.no_base", "no commit %s to compare with (a shallow clone? the workflow fetches with fetch-depth: 0)",
		"không có commit %s để so (clone nông chăng? workflow fetch với fetch-depth: 0)"},
	{"grade.changed", "exercise.go changed since %.12s in %d step(s)", "exercise.go đã đổi từ %.12s ở %d bước"},
	{"grade.bad_steps", "-steps %q: want exercise steps (%v) separated by commas, or all",
		"-steps %q: cần các bước có bài tập (%v), cách nhau bằng dấu phẩy, hoặc all"},
	{"grade.check_failed", "the check of step %s failed (the job summary says where)", "check của bước %s không pass (job summary ghi rõ lỗi ở đâu)"},
	{"grade.summary", "the job summary", "job summary"},
}

func init() { add(gradeLines) }
