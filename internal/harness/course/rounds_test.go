package course

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// Step 10's lessons tell the learner how many of the check's own
// announcements a replica may hear before it must serve the new item. That
// number is the check's `rounds` constant; the prose says it in words, so
// a test holds the two together (the constant changes, the lesson must).
func TestStep10LessonsSayTheChecksRounds(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "steps", "10-scale-out")
	src, err := os.ReadFile(filepath.Join(dir, "check_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^const rounds = (\d+)$`).FindSubmatch(src)
	if m == nil {
		t.Fatal("steps/10-scale-out/check_test.go: no `const rounds = N` line")
	}
	rounds, _ := strconv.Atoi(string(m[1]))
	words := map[string][]string{ // 1…5 in each language
		"README.md":    {"", "one", "two", "three", "four", "five"},
		"README.vi.md": {"", "một", "hai", "ba", "bốn", "năm"},
	}
	phrase := map[string]*regexp.Regexp{ // where the lessons state the bound
		"README.md":    regexp.MustCompile(`(?:room for|at most)\s+(\S+)\s+(?:such\s+)?announcements?`),
		"README.vi.md": regexp.MustCompile(`tối đa\s+(\S+)\s+lần\s+thông báo`),
	}
	for file, re := range phrase {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		found := re.FindAllSubmatch(b, -1)
		if len(found) == 0 {
			t.Errorf("%s: no sentence states the check's bound (looked for %q)", file, re)
		}
		for _, f := range found {
			if got := string(f[1]); rounds >= len(words[file]) || got != words[file][rounds] {
				t.Errorf("%s says %q announcements; the check's rounds is %d", file, got, rounds)
			}
		}
	}
}
