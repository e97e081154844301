package comparison

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// make probe's lines (cmd/workshop/probe.go, internal/harness/probe): said to a
	// person, never stored. Each names the make variable the README teaches
	// (URL=, METRICS=, PER_REQUEST=, ALLOW_REMOTE=1), not a flag.

	// make compare of two probes (internal/harness/comparison).
	{Key: "compare.other_url", En: "  note: A and B probed different services (%s → %s): the change is between services, not a change of one\n", Vi: "  ghi chú: A và B probe hai service khác nhau (%s → %s): chênh lệch là giữa hai service, không phải thay đổi của một service\n"},

	// make compare (cmd/workshop/compare.go, internal/harness/comparison).
	{Key: "compare.head", En: "step %d — %s\n", Vi: "bước %d — %s\n"},
	{Key: "compare.differ", En: "  note: A and B differ in %s\n", Vi: "  ghi chú: A và B khác nhau ở %s\n"},
	{Key: "compare.only_in", En: "(only in %s)", Vi: "(chỉ có ở %s)"},
	{Key: "compare.few_rounds", En: "\n¹ fewer than %d rounds on a side: the change is what was measured, but no test can tell it from noise\n  (benchmath's U-test needs ≥ %d rounds per side for p < 0.05). Bench both with RUNS=%d or more, e.g.\n  %s\n", Vi: "\n¹ mỗi bên chưa tới %d vòng: mức thay đổi là số đo thật, nhưng không phép kiểm định nào phân biệt được nó với nhiễu\n  (U-test của benchmath cần ≥ %d vòng mỗi bên để có p < 0.05). Bench cả hai với RUNS=%d trở lên, ví dụ\n  %s\n"},
	{Key: "compare.legend", En: "\n~: p > %.2f, these rounds cannot tell the change from noise; n = rounds per side (A+B when they differ). A and B are medians over the rounds, ± their 95%% interval when the rounds are enough for one.\n", Vi: "\n~: p > %.2f, số vòng này chưa phân biệt được thay đổi với nhiễu; n = số vòng mỗi bên (A+B khi hai bên khác nhau). A và B là trung vị qua các vòng, ± khoảng tin cậy 95%% khi đủ vòng để tính.\n"},
	{Key: "compare.describe", En: "%d round(s), %d CPUs, %s stack", Vi: "%d vòng, %d CPU, stack %s"},
	{Key: "compare.claims", En: "\nthe claims, A beside B:\n", Vi: "\ncác claim, A cạnh B:\n"},
	{Key: "compare.measured", En: "          %s measured: %s\n", Vi: "          %s đo được: %s\n"},
	{Key: "compare.machine", En: "machine (%d × %s → %d × %s)", Vi: "máy (%d × %s → %d × %s)"},
	{Key: "compare.stack", En: "stack (%s → %s)", Vi: "stack (%s → %s)"},

	// make compare DIR=<folder>: a lead's folder, one table per step, one
	// row per person (cmd/workshop/compare.go, internal/harness/comparison/folder.go).
	{Key: "compare.col_person", En: "person", Vi: "người"},
	{Key: "compare.col_when", En: "when", Vi: "lúc"},
	{Key: "compare.col_code", En: "code", Vi: "code đã chạy"},
	{Key: "compare.col_rounds", En: "rounds", Vi: "số vòng"},
	{Key: "compare.col_fastest", En: "fastest row req/s", Vi: "req/s của hàng nhanh nhất"},
	{Key: "compare.theirs", En: "theirs", Vi: "của họ"},
	{Key: "compare.reference", En: "reference", Vi: "lời giải mẫu"},
}

func init() { messages.Add(texts) }
