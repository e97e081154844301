package docs

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
)

// A generated region is written in its file's language (issue 34 §2): the
// Vietnamese lesson's words are the Vietnamese CLI's, its data the English
// lesson's. regionData is what both editions must hold alike; the words
// around it may differ.

var (
	figureRE    = regexp.MustCompile(`\d[\d.,]*`)
	claimLineRE = regexp.MustCompile("^- `([^`]+)` \\*\\*([^*]+)\\*\\*")
)

// regionData is, for each region of a file, its name, its table rows'
// count, every figure outside the claim lines (tables, how the run was
// recorded), and each claim's id and verdict, the verdict as its catalogue
// key, so "REPRODUCED" and "TÁI HIỆN ĐƯỢC" are the same datum. A claim's
// own sentences are the claim's text in each language and are not
// compared: their figures are the claim code's, in both. The claims
// table's rows are claims too: their step, id and verdict are compared.
func regionData(text string) []string {
	var out []string
	for _, m := range regionRE.FindAllStringSubmatch(text, -1) {
		var d []string
		rows := 0
		for _, line := range strings.Split(m[3], "\n") {
			if c := claimLineRE.FindStringSubmatch(line); c != nil {
				d = append(d, "claim "+c[1]+" "+verdictKey(c[2]))
				continue
			}
			if strings.HasPrefix(line, "|") {
				rows++
			}
			if cells := strings.Split(strings.Trim(line, "| "), " | "); m[2] == "claims" && len(cells) > 3 && figureRE.MatchString(cells[0]) {
				d = append(d, "claim "+cells[0]+" "+cells[1]+" "+verdictKey(cells[len(cells)-1]))
				continue
			}
			d = append(d, figureRE.FindAllString(line, -1)...)
		}
		out = append(out, fmt.Sprintf("%s: %d table lines; %s", m[2], rows, strings.Join(d, " ")))
	}
	return out
}

// verdictKey is the catalogue key a written verdict says, in either
// language; a word that is none is kept as written (and then differs).
func verdictKey(word string) string {
	for _, k := range []string{"verdict.reproduced", "verdict.not_reproduced", "verdict.not_measured"} {
		if word == messages.English.T(k) || word == messages.Vietnamese.T(k) {
			return k
		}
	}
	return word
}

// englishInRegion lists the English strings a Vietnamese region about the
// steps ns (a step's block, or the claims table of them all) shows
// where the Vietnamese CLI prints Vietnamese: the docs.* lines' words, the
// run table's headers, the verdicts, the step's own tables' titles and
// headers, and each claim's English lines (a stored run whose claim the
// current code words otherwise falls back to them: re-record it).
func englishInRegion(refs *references, ns []int, body string) []string {
	var out []string
	found := func(what, en string) {
		if strings.Contains(body, en) {
			out = append(out, fmt.Sprintf("%s %q", what, clip(en)))
		}
	}
	for _, k := range []string{"docs.provenance", "docs.claim", "docs.rerecord", "docs.claims_head"} {
		vi := messages.Vietnamese.T(k)
		for _, piece := range regexp.MustCompile(`%[a-z]`).Split(messages.English.T(k), -1) {
			if p := strings.TrimSpace(piece); strings.Contains(p, " ") && !strings.Contains(vi, p) {
				found("the line", p)
			}
		}
	}
	for _, c := range runColumns {
		if en, vi := messages.English.T(c.head), messages.Vietnamese.T(c.head); en != vi {
			found("the column", "| "+en+" |")
		}
	}
	for _, k := range []string{"verdict.reproduced", "verdict.not_reproduced", "verdict.not_measured", "table.col.variant", "table.col.tool"} {
		found("the word", "**"+messages.English.T(k)+"**")
		found("the column", "| "+messages.English.T(k)+" |")
	}
	for _, n := range ns {
		for _, t := range refs.runs[n].Tables {
			for _, w := range append([]string{t.Title}, t.Header...) {
				if messages.Vietnamese.Restate(w) != w {
					found("the table word", w)
				}
			}
		}
		out = append(out, englishClaimLines(refs, n, body)...)
	}
	return out
}

// englishClaimLines lists step n's claims' English lines found in body.
func englishClaimLines(refs *references, n int, body string) []string {
	var out []string
	for _, c := range refs.current(n) {
		en, vi := c.LinesIn(messages.English), c.LinesIn(messages.Vietnamese)
		for _, pair := range [][2]string{{en.Text, vi.Text}, {en.Measured, vi.Measured}, {en.Tolerance, vi.Tolerance}} {
			if pair[0] != pair[1] && len(pair[0]) > 20 { // a short line ("0 lost") may be the same words by chance
				if en := strings.TrimSuffix(pair[0], "."); strings.Contains(body, cell(en)) {
					out = append(out, fmt.Sprintf("claim %s's English line %q", c.ID, clip(en)))
				}
			}
		}
	}
	return out
}

// TestVietnameseRegionsSpeakVietnamese: a step's generated region, and the
// claims table, in a Vietnamese file quotes no English the Vietnamese CLI prints in
// Vietnamese (issue 34 §2, "a vi file quotes no English UI string that the
// vi CLI does not print").
func TestVietnameseRegionsSpeakVietnamese(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	refs, err := loadReferences(root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range vietnameseRegions(t, root) {
		var ns []int
		var n int
		switch _, err := fmt.Sscanf(r.name, "step-%d", &n); {
		case err == nil && refs.runs[n] != nil:
			ns = []int{n}
		case r.name == "claims":
			for _, s := range refs.steps {
				ns = append(ns, s.N)
			}
		default:
			continue // no CLI words to compare: TestEveryVietnameseRegionIsVietnamese reads its words
		}
		checked++
		for _, e := range englishInRegion(refs, ns, r.body) {
			t.Errorf("%s, region %s: English where the Vietnamese CLI speaks Vietnamese: %s", r.file, r.name, e)
		}
	}
	if checked == 0 {
		t.Error("no step region in a Vietnamese file: the test checks nothing")
	}
}

// TestEnglishInRegionCatchesEachLeak: the English step block is caught on
// every count, the Vietnamese one passes.
func TestEnglishInRegionCatchesEachLeak(t *testing.T) {
	refs, err := loadReferences(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	six := []int{6}
	if e := englishInRegion(refs, six, refs.stepBlock(6, messages.Vietnamese)); len(e) > 0 {
		t.Errorf("the Vietnamese block was refused: %v", e)
	}
	var all []int
	for _, s := range refs.steps {
		all = append(all, s.N)
	}
	if e := englishInRegion(refs, all, refs.claimTable(messages.Vietnamese)); len(e) > 0 {
		t.Errorf("the Vietnamese claims table was refused: %v", e)
	}
	if e := englishInRegion(refs, all, refs.claimTable(messages.English)); len(e) == 0 {
		t.Error("the English claims table passed as Vietnamese")
	}
	en := refs.stepBlock(6, messages.English)
	got := strings.Join(englishInRegion(refs, six, en), "\n")
	for _, want := range []string{"recorded", "| variant |", "Tolerance:", "English line", "the table word"} {
		if !strings.Contains(got, want) {
			t.Errorf("the English block's %q was not caught; caught:\n%s", want, got)
		}
	}
}

// TestRegionDataIsTheSameInBothLanguages: the two renderings of every
// region hold the same data, and a changed figure or verdict is seen.
func TestRegionDataIsTheSameInBothLanguages(t *testing.T) {
	refs, err := loadReferences(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	wrap := func(body string) string { return "<!-- reference:step-6 -->\n" + body + "<!-- /reference -->" }
	en, vi := refs.stepBlock(6, messages.English), refs.stepBlock(6, messages.Vietnamese)
	if a, b := regionData(wrap(en)), regionData(wrap(vi)); strings.Join(a, "") != strings.Join(b, "") {
		t.Errorf("the data differ:\nEnglish: %v\nVietnamese: %v", a, b)
	}
	word := messages.Vietnamese.T("verdict.reproduced")
	flipped := strings.Replace(vi, "**"+word+"**", "**"+messages.Vietnamese.T("verdict.not_reproduced")+"**", 1)
	if !strings.Contains(vi, word) || strings.Join(regionData(wrap(flipped)), "") == strings.Join(regionData(wrap(en)), "") {
		t.Error("a flipped verdict was not seen")
	}
}
