package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
)

// Every generated region of a Vietnamese file is written in Vietnamese
// (issue 34 §2), not only the step blocks and the claims table whose CLI
// words englishInRegion knows: a course-wide table (sources, timings,
// agenda, the scaling notes…) has no catalogue to compare with, so its
// English is found by the words Vietnamese never writes.

// englishOnly are words English prose cannot do without and Vietnamese
// never writes: a line holding one outside code, links and quotes is an
// English line. Words both languages write (Vietnamese keeps "cache",
// "bench", "round-robin"; a variant is "node-before"; "in" and "to" are
// Vietnamese words) are not in it.
var englishOnly = strings.Fields(`the of and is are was were be been being with without from by not
	its it's than which that this these those each every per when while where what whose into
	only also yet our ours their theirs here there has have had for or at as it they we you your
	how then does did can cannot must should would will could`)

var (
	// notProse is what a region quotes rather than says: code spans, link
	// targets, addresses, «the originals' sentences» (“…” inside a claim's
	// text), *titles* and Go's qualified names (errors.Is, sync.Map).
	notProse = regexp.MustCompile("`[^`\n]*`|\\]\\([^)\n]*\\)|https?://\\S+|«[^»]*»|“[^”]*”|\\*[A-Z][^*\n]*\\*|\\b[A-Za-z_]+\\.[A-Za-z_]\\w*")
	// wordRE is a word, a hyphenated name ("get-or-set") whole.
	wordRE     = regexp.MustCompile(`\pL[\pL'-]*`)
	isEnglish  = map[string]bool{}
	regionLine = regexp.MustCompile(`(?m)^.*$`)
)

func init() {
	for _, w := range englishOnly {
		isEnglish[w] = true
	}
}

// englishLines are the lines of a region's body that read as English, each
// with the English words found in it.
func englishLines(body string) []string {
	var out []string
	for _, line := range regionLine.FindAllString(body, -1) {
		var found []string
		for _, w := range wordRE.FindAllString(notProse.ReplaceAllString(line, " "), -1) {
			if w = strings.ToLower(w); isEnglish[w] && !slices.Contains(found, w) {
				found = append(found, w)
			}
		}
		if len(found) > 0 {
			out = append(out, fmt.Sprintf("%q (%s)", clip(strings.TrimSpace(line)), strings.Join(found, ", ")))
		}
	}
	return out
}

// Every generated region of every Vietnamese file has no English line: a
// generator writes its Vietnamese beside its English.
func TestEveryVietnameseRegionIsVietnamese(t *testing.T) {
	regions := vietnameseRegions(t, filepath.Join("..", "..", ".."))
	for _, r := range regions {
		for _, e := range englishLines(r.body) {
			t.Errorf("%s, region %s: an English line in a Vietnamese file: %s", r.file, r.name, e)
		}
	}
	if len(regions) == 0 {
		t.Error("no generated region in a Vietnamese file: the test checks nothing")
	}
}

// region is one generated region of a file: its name and what it holds.
type region struct{ file, name, body string }

// vietnameseRegions are the generated regions of every Vietnamese file.
func vietnameseRegions(t *testing.T, root string) []region {
	t.Helper()
	var out []region
	for _, f := range vietnameseFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regionRE.FindAllStringSubmatch(string(b), -1) {
			out = append(out, region{f, m[2], m[3]})
		}
	}
	return out
}

// TestEnglishLinesCatchEachLeak: the Vietnamese steps table passes, the
// English one is caught, and so is one English cell planted in the
// Vietnamese table, or an English line among Vietnamese ones.
func TestEnglishLinesCatchEachLeak(t *testing.T) {
	refs, err := loadReferences(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	vi, en := refs.stepTable(messages.Vietnamese, "."), refs.stepTable(messages.English, ".")
	if e := englishLines(vi); len(e) > 0 {
		t.Errorf("the Vietnamese steps table was refused: %v", e)
	}
	if len(englishLines(en)) < len(refs.steps) {
		t.Errorf("the English steps table passed as Vietnamese, %d lines caught of %d: %v", len(englishLines(en)), len(refs.steps), englishLines(en))
	}
	zero := refs.steps[0].Row
	planted := strings.Replace(vi, zero.Vi.Adds, zero.Adds, 1)
	if planted == vi || len(englishLines(planted)) != 1 {
		t.Errorf("one English cell (%q) planted in the Vietnamese table: caught %v, want one line", zero.Adds, englishLines(planted))
	}
	for _, ok := range []string{"`the code` «the original» “the quote” [x](the/link) *The Title* get-or-set node-before errors.Is"} {
		if e := englishLines(ok); len(e) > 0 {
			t.Errorf("what a region quotes was read as its words: %v", e)
		}
	}
}

// TestEverySourceRefTwinIsUsed: each Vietnamese twin of a source's Ref
// (sourceRefs) stands for a Ref some claim declares: a Ref
// reworded in its claim leaves its old twin here, and this names it.
func TestEverySourceRefTwinIsUsed(t *testing.T) {
	refs, err := loadReferences(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, s := range refs.steps {
		for _, c := range refs.current(s.N) {
			declared[c.Source.Ref] = true
		}
	}
	for _, en := range sourceRefs() {
		if !declared[en] {
			t.Errorf("the Vietnamese twin of the Ref %q: no claim declares that Ref any more; reword the twin's English as the claim's, or drop it", en)
		}
	}
}
