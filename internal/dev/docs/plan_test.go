package docs

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/dev/agenda"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
)

// TestThePlanAddsItsParts: each step's slot is its reading, deck, exercise
// and runs, the runs counting the check three times where there is an
// exercise; the core day ends after lastCoreStep and the optional part
// follows it.
func TestThePlanAddsItsParts(t *testing.T) {
	r := &references{root: filepath.Join("..", "..", "..")}
	tm := &agenda.Timings{Date: "2026-12-03T00:00:00Z"}
	for _, s := range course.All() {
		tm.Steps = append(tm.Steps, agenda.Timing{Step: s.N, Check: agenda.Timed{Seconds: 30, OK: true}, Bench: agenda.Timed{Seconds: 60, OK: true}})
	}
	out, err := r.plan(tm, messages.English, "docs")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range course.All() {
		runs := "2 min" // 1 check (30 s) + the bench (60 s), rounded up
		if s.Exercise {
			runs = "3 min" // 3 checks (90 s) + the bench (60 s)
		}
		p, err := r.stepRow(s, tm, messages.English)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("| step %d — %s | %s | %s | %s | %s | %s |", s.N, s.Slug, p.readCell(messages.English), minCell(p.deck, messages.English), minCell(p.exercise, messages.English), runs, minCell(p.total(), messages.English))
		if !strings.Contains(out, want) {
			t.Errorf("step %d: no row %q in\n%s", s.N, want, out)
		}
	}
	core := strings.Index(out, "end of the core day")
	if core < 0 || core > strings.Index(out, fmt.Sprintf("step %d —", lastCoreStep+1)) || core < strings.Index(out, fmt.Sprintf("step %d —", lastCoreStep)) {
		t.Errorf("the core day does not end between step %d and step %d:\n%s", lastCoreStep, lastCoreStep+1, out)
	}
	if _, err := r.plan(&agenda.Timings{Date: tm.Date}, messages.English, "docs"); err == nil || !strings.Contains(err.Error(), "make agenda") {
		t.Errorf("a plan without timings: %v, want an error that says to run make agenda", err)
	}
}

func TestToolsSaysWhatWasMissing(t *testing.T) {
	for _, c := range []struct {
		have map[string]bool
		want string
	}{
		{nil, "optional tools not recorded"},
		{map[string]bool{"wrk": true, "k6": false}, "with wrk, without k6"},
		{map[string]bool{"wrk": false, "haproxy": false}, "without haproxy, wrk"},
	} {
		if got := tools(c.have, messages.English); got != c.want {
			t.Errorf("tools(%v) = %q, want %q", c.have, got, c.want)
		}
	}
}

// TestTheVietnamesePlanNamesStepsAsTheDecks: the Vietnamese guide's plan
// names each step as its Vietnamese deck's title does, links the
// Vietnamese README from docs/vi/, and holds the English plan's figures.
func TestTheVietnamesePlanNamesStepsAsTheDecks(t *testing.T) {
	r := &references{root: filepath.Join("..", "..", "..")}
	tm := &agenda.Timings{Date: "2026-12-03T00:00:00Z"}
	for _, s := range course.All() {
		tm.Steps = append(tm.Steps, agenda.Timing{Step: s.N, Check: agenda.Timed{Seconds: 30, OK: true}, Bench: agenda.Timed{Seconds: 60, OK: true}})
	}
	vi, err := r.plan(tm, messages.Vietnamese, "docs/vi")
	if err != nil {
		t.Fatal(err)
	}
	en, err := r.plan(tm, messages.English, "docs")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| bước 0 — mức trần |", "| bước 6 — ghi qua buffer |", "([README](../../README.vi.md))"} {
		if !strings.Contains(vi, want) {
			t.Errorf("the Vietnamese plan has no %q:\n%s", want, vi)
		}
	}
	if a, b := figureRE.FindAllString(en, -1), figureRE.FindAllString(vi, -1); strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("the plans' figures differ:\nEnglish:    %v\nVietnamese: %v", a, b)
	}
}
