package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/dev/lesson"
)

// The day must fit (issue 32): each step README opens with what the learner
// must read and do, and the rest waits under "## Going deeper" ("## Đi sâu
// hơn"), which the check never needs. The must-read part is counted as
// lesson.Words counts it: prose only, code blocks and HTML comments out.
const (
	// maxMustReadWords: about 7 minutes at lesson.WordsPerMinute.
	maxMustReadWords = 1000
	// maxMustReadTokensVi is ours: Vietnamese writes a word as one to three
	// syllables separated by spaces, so the same lesson has more
	// whitespace tokens than the English; our twins run 1.2–1.5× the
	// English's count, and 1,400 keeps the same reading time.
	maxMustReadTokensVi = 1400
)

func TestEachStepsMustReadPartFitsTheDay(t *testing.T) {
	for _, m := range manifest() {
		t.Run(filepath.Base(m.Dir()), func(t *testing.T) {
			en := readLesson(t, filepath.Join(m.Dir(), "README.md"))
			vi := readLesson(t, filepath.Join(m.Dir(), "README.vi.md"))
			enMust, enSplit := lesson.MustRead(en)
			viMust, viSplit := lesson.MustRead(vi)
			if !enSplit || !viSplit {
				t.Errorf("step %d: README.md has %q: %v, README.vi.md has %q: %v; both need it, after what the check needs",
					m.N, lesson.DeeperEN, enSplit, lesson.DeeperVI, viSplit)
			}
			if n := lesson.Words(enMust); n > maxMustReadWords {
				t.Errorf("step %d, English: the must-read part (before %q) has %d words, more than %d: move the rest under it",
					m.N, lesson.DeeperEN, n, maxMustReadWords)
			}
			if n := lesson.Words(viMust); n > maxMustReadTokensVi {
				t.Errorf("step %d, Vietnamese: the must-read part (before %q) has %d tokens, more than %d: move the rest under it",
					m.N, lesson.DeeperVI, n, maxMustReadTokensVi)
			}
			sameStructure(t, m.N, lesson.Headings(enMust), lesson.Headings(viMust))
		})
	}
}

// sameStructure: the two must-read parts hold the same sections in the same
// order — the same number of headings, each at the same level (their words
// are in two languages; the parity test holds their commands and figures).
func sameStructure(t *testing.T, step int, en, vi []string) {
	t.Helper()
	level := func(h string) int { return len(h) - len(strings.TrimLeft(h, "#")) }
	if len(en) != len(vi) {
		t.Errorf("step %d: the must-read parts have %d headings in English, %d in Vietnamese: same sections, same order\n  English:    %q\n  Vietnamese: %q",
			step, len(en), len(vi), en, vi)
		return
	}
	for i := range en {
		if level(en[i]) != level(vi[i]) {
			t.Errorf("step %d: must-read heading #%d is %q in English, %q in Vietnamese: same sections, same order", step, i+1, en[i], vi[i])
		}
	}
}

func readLesson(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
