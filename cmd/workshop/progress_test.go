package main

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/cli"
	"github.com/peakload/workshop/internal/messages"
)

// The hints seen so far and the next one; past the last, all of them and
// a pointer to diff — never an index out of range.
func TestHintText(t *testing.T) {
	hints := []string{"first", "second", "third"}
	for _, tc := range []struct {
		name  string
		seen  int
		shows []string
		hides []string
	}{
		{"first time", 0, []string{"hint 1 of 3", "→ 1. first"}, []string{"second", "make step-3 diff"}},
		{"second time", 1, []string{"hint 2 of 3", "  1. first", "→ 2. second"}, []string{"third"}},
		{"the last", 2, []string{"hint 3 of 3", "→ 3. third", "make step-3 diff"}, nil},
		{"asked again after the last", 3, []string{"hint 3 of 3", "  3. third", "make step-3 diff"}, []string{"→"}},
		{"a state file beyond the hints", 9, []string{"hint 3 of 3"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := hintText(3, hints, tc.seen)
			for _, s := range tc.shows {
				if !strings.Contains(got, s) {
					t.Errorf("missing %q in:\n%s", s, got)
				}
			}
			for _, s := range tc.hides {
				if strings.Contains(got, s) {
					t.Errorf("%q shown too early in:\n%s", s, got)
				}
			}
		})
	}
}

func TestParseSolution(t *testing.T) {
	for _, tc := range []struct {
		in      string
		on, bad bool
	}{
		{"", false, false}, {"0", false, false}, {"false", false, false},
		{"1", true, false}, {"true", true, false},
		{"yes", false, true}, {"2", false, true},
	} {
		t.Run("SOLUTION="+tc.in, func(t *testing.T) {
			on, err := cli.ParseSolution(tc.in)
			if on != tc.on || (err != nil) != tc.bad {
				t.Errorf("= %v, %v; want %v, error %v", on, err, tc.on, tc.bad)
			}
		})
	}
}

// A helper of the reference is shown beside the learner's functions; a
// given exported part is not.
func TestIsHelper(t *testing.T) {
	for name, want := range map[string]bool{
		"NotModified": false, "opaque": true, "Guard.Login": false,
		"Guard.reserve": true, "batcher.Add": true, "Batcher.flush": true,
	} {
		t.Run(name, func(t *testing.T) {
			if got := isHelper(name); got != want {
				t.Errorf("isHelper(%q) = %v, want %v", name, got, want)
			}
		})
	}
}

// make progress FORMAT=markdown under PEAKLOAD_LANG=vi: the heading, the
// header and the words are Vietnamese; FORMAT=json keeps the English words
// whatever the reader's language (a lead collects many forks' files), and
// a Progress read back from it prints its English last bench.
func TestProgressInVietnamese(t *testing.T) {
	p := Progress{Who: "an", Commit: "0123456789abcdef", Steps: []StepProgress{
		{Step: 0, Slug: "ceilings", Exercise: "—", LastBench: "A0 REPRODUCED (the step, Dec 2 10:50)", Read: "A0 TÁI HIỆN ĐƯỢC (của bước, 2/12 10:50)"},
		{Step: 2, Slug: "cache-aside", Exercise: "solved", HintsSeen: 1, Hints: 3, LastBench: "none yet (make step-2 bench)"},
	}}
	write := func(l messages.Lang, format string) string {
		defer messages.Use(l)()
		var b strings.Builder
		if err := writeProgress(&b, p, format); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	vi := write(messages.Vietnamese, "markdown")
	for _, want := range []string{"### Tiến độ workshop — an (0123456789ab)", "| bước | bài tập | gợi ý |", "| đã xong | 1/3 |", "TÁI HIỆN ĐƯỢC", "đã xong = lần gần nhất"} {
		if !strings.Contains(vi, want) {
			t.Errorf("the Vietnamese markdown lacks %q:\n%s", want, vi)
		}
	}
	for _, gone := range []string{"Workshop progress", "| step |", "solved", " of 3", "REPRODUCED"} {
		if strings.Contains(vi, gone) {
			t.Errorf("the Vietnamese markdown still says %q:\n%s", gone, vi)
		}
	}
	en := write(messages.English, "markdown")
	if !strings.Contains(en, "| 2 cache-aside | solved | 1 of 3 | none yet (make step-2 bench) |") || !strings.Contains(en, "### Workshop progress — an") {
		t.Errorf("the English markdown moved:\n%s", en)
	}
	js := write(messages.Vietnamese, "json")
	if strings.Contains(js, "TÁI HIỆN") || !strings.Contains(js, `"exercise": "solved"`) || !strings.Contains(js, "A0 REPRODUCED") {
		t.Errorf("FORMAT=json under vi is not the English file:\n%s", js)
	}
}
