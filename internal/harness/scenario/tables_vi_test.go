package scenario

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/messages/messagestest"
	"github.com/peakload/workshop/internal/harness/result"
)

// TestStepTablesKeepTheirStoredText: a step's extra tables, built again
// from its reference run, are the stored ones byte for byte — their words
// now come from the catalogue (English.T), and the results JSON and the
// README's generated regions must not move. The kernel table's values are
// this machine's, so only its words are compared.
func TestStepTablesKeepTheirStoredText(t *testing.T) {
	for _, s := range All() {
		if s.Tables == nil {
			continue
		}
		r := referenceRun(t, s.N)
		built := s.Tables(&r)
		if len(built) > len(r.Tables) {
			t.Fatalf("step %d: %d tables built, %d stored", s.N, len(built), len(r.Tables))
		}
		for i, b := range built {
			stored := r.Tables[i]
			if b.Title != stored.Title || !slices.Equal(b.Header, stored.Header) || !slices.Equal(b.Notes, stored.Notes) {
				t.Errorf("step %d table %d: built\n  %q %q %q\nstored\n  %q %q %q", s.N, i, b.Title, b.Header, b.Notes, stored.Title, stored.Header, stored.Notes)
			}
			if b.Title == messages.English.T("table.kernel.title") {
				for j := range b.Rows {
					if b.Rows[j][0] != stored.Rows[j][0] || b.Rows[j][2] != stored.Rows[j][2] {
						t.Errorf("step %d kernel row %d: %q, stored %q", s.N, j, b.Rows[j], stored.Rows[j])
					}
				}
				continue
			}
			if !slices.EqualFunc(b.Rows, stored.Rows, slices.Equal) {
				t.Errorf("step %d table %q: rows\n  %q\nstored\n  %q", s.N, b.Title, b.Rows, stored.Rows)
			}
		}
	}
}

// TestExtraTablesInVietnamese: under PEAKLOAD_LANG=vi, no English word of
// the extra tables the reference runs print (steps' own tables and the
// open loop's) survives in what result.Table.Print says: every title,
// header, word cell and note is found in the catalogue and said in
// Vietnamese. The words that may stay are the loanwords
// docs/vi/glossary.md keeps, the names below, units, and the run's own
// identifiers (variants, tools, frameworks, endpoints).
func TestExtraTablesInVietnamese(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "results", "reference", "step-*.json"))
	kept := glossaryWords(t)
	tables := 0
	for _, f := range files {
		var n int
		if _, err := fmt.Sscanf(filepath.Base(f), "step-%d.json", &n); err != nil {
			t.Fatal(err)
		}
		r := referenceRun(t, n)
		ids := identifiers(&r)
		for _, tb := range r.Tables {
			tables++
			for _, s := range tableStrings(tb) {
				v := messages.Vietnamese.Restate(s.text)
				if s.sentence && v == s.text {
					t.Errorf("step %d: the %s %q is not in the catalogue", n, s.what, s.text)
					continue
				}
				for _, w := range messagestest.EnglishLeft(s.text, v, kept) {
					if !ids[strings.ToLower(w)] {
						t.Errorf("step %d: the %s %q prints %q under vi, keeping the English word %q", n, s.what, s.text, v, w)
					}
				}
			}
		}
	}
	if tables == 0 {
		t.Fatal("no extra table in results/reference")
	}
	var b strings.Builder
	restore := messages.Use(messages.Vietnamese)
	referenceTable(t, 10).Print(&b)
	restore()
	if !strings.Contains(b.String(), "biến thể") {
		t.Errorf("result.Table.Print does not say the header in Vietnamese:\n%s", b.String())
	}
}

// referenceTable is the first stored extra table of step n's reference run.
func referenceTable(t *testing.T, n int) result.Table {
	r := referenceRun(t, n)
	if len(r.Tables) == 0 {
		t.Fatalf("step %d stores no table", n)
	}
	return r.Tables[0]
}

type tableString struct {
	what, text string
	sentence   bool // a title or a note: always a message, never a figure
}

func tableStrings(tb result.Table) []tableString {
	out := []tableString{{"title", tb.Title, true}}
	for _, h := range tb.Header {
		out = append(out, tableString{"header", h, false})
	}
	for _, row := range tb.Rows {
		for _, c := range row {
			out = append(out, tableString{"cell", c, false})
		}
	}
	for _, n := range tb.Notes {
		out = append(out, tableString{"note", n, true})
	}
	return out
}

// namesKept are the words a Vietnamese table keeps besides the glossary's:
// products, protocols, units, the code's own names, and the few loanwords
// docs/vi/glossary.md lists under other headings (its "Thuật ngữ" rows
// give most of them).
var namesKept = strings.Fields(`
	README proc GET POST HTTP HAProxy PostgreSQL Redis MongoDB FerretDB Express Mongo ETag SIGTERM ulimit metrics empty id
	minhpq331 write heavy application commit
	ms req MB KB µs s q DB CPU RSS core user kernel
	process server request connection timeout body panic response max
	echo nethttp fasthttp yours endpoint framework
	bare guards full read header write idle
	sync raw seq group bulk
	stale pubsub
	capacity
	think time coordinated omission percentile VUs N
	load item insert event additional
	hash round robin
	go wrk k6 driver
`)

// glossaryWords are the words docs/vi/glossary.md keeps in English, with
// namesKept.
func glossaryWords(t *testing.T) map[string]bool {
	kept, err := messagestest.GlossaryWords(filepath.Join("..", "..", ".."), namesKept...)
	if err != nil {
		t.Fatal(err)
	}
	return kept
}

// identifiers are the run's own names: its variants' parts, tools and
// settings, printed as they are in both languages.
func identifiers(r *result.Result) map[string]bool {
	ids := map[string]bool{}
	add := func(s string) {
		for _, w := range messagestest.EnglishWords(s) {
			ids[strings.ToLower(w)] = true
		}
	}
	for _, x := range r.Runs {
		add(string(x.Variant))
		add(x.Tool)
		add(x.Route)
	}
	for _, tb := range r.Tables {
		for _, row := range tb.Rows {
			if strings.Contains(row[0], ".") && !strings.Contains(row[0], " ") {
				add(row[0]) // a kernel setting's name: net.core.somaxconn
			}
		}
	}
	return ids
}
