package messages

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/peakload/workshop/internal/given/messages/messagestest"
)

// TestVietnameseIsPrecomposed: every Vietnamese message writes each letter
// as one rune (NFC: "ệ", not "e" + two combining marks). The CLI's tables
// are aligned by text/tabwriter, which counts a cell's width in runes: a
// combining mark would count as a column and shift the row.
func TestVietnameseIsPrecomposed(t *testing.T) {
	for key, v := range vi {
		if i := strings.IndexFunc(v, func(r rune) bool { return unicode.Is(unicode.Mn, r) }); i >= 0 {
			t.Errorf("%q has a combining mark at byte %d: %q", key, i, v)
		}
	}
}

// TestTableMessagesHoldAWord: Restate matches a printed cell against every
// table.* format, so a format of verbs and marks alone ("%d", "%.0f%%")
// would take a figure for a message and rewrite it.
func TestTableMessagesHoldAWord(t *testing.T) {
	for _, w := range append(slices.Clone(tableWords), auditWords...) {
		rest := verbRE.ReplaceAllString(w.en, "")
		if !strings.ContainsFunc(rest, unicode.IsLetter) {
			t.Errorf("%q: %q holds no word", w.key, w.en)
		}
	}
}

// TestRestateTableCells: a table's words are said in Vietnamese with their
// figures carried over; a figure or a name is printed as it is; a cell
// joining two messages with "; " is said part by part.
func TestRestateTableCells(t *testing.T) {
	for in, want := range map[string]string{
		"variant":         "biến thể",
		"1 (no balancer)": "1 (không có balancer)",
		"97.6%":           "97.6%",
		"hash-4-stop":     "hash-4-stop",
		"one replica stopped a third of the way in (hash-4-stop)":                                                "một replica bị dừng khi hàng chạy được một phần ba (hash-4-stop)",
		"p99 102.1 ms > 25 ms; the driver fell behind (11% sent late, server 67% busy)":                          "p99 102.1 ms > 25 ms; driver bị tụt lại (11% gửi muộn, server bận 67%)",
		"never sent: 10082 requests (every connection busy)":                                                     "không gửi được: 10082 request (mọi connection đều bận)",
		"capacity: the highest arrival rate served with p99 ≤ 25 ms (open loop), beside the closed loop's req/s": "capacity: tốc độ request đến cao nhất mà server còn phục vụ được với p99 ≤ 25 ms (vòng hở), đặt cạnh req/s của vòng kín",
	} {
		if got := Vietnamese.Restate(in); got != want {
			t.Errorf("Restate(%q) = %q, want %q", in, got, want)
		}
		if got := English.Restate(in); got != in {
			t.Errorf("English.Restate(%q) = %q", in, got)
		}
	}
}

// TestRestateIsUnambiguous: Restate finds a key from its English, so two
// table.* or note.* keys with one English format must say it alike, or a
// cell would print whichever key sorts first.
func TestRestateIsUnambiguous(t *testing.T) {
	seen := map[string]string{}
	for _, p := range notePatterns() {
		if k, ok := seen[en[p.key]]; ok && vi[k] != vi[p.key] {
			t.Errorf("%q and %q are both %q in English, %q and %q in Vietnamese", k, p.key, en[p.key], vi[k], vi[p.key])
		}
		seen[en[p.key]] = p.key
	}
}

// TestRestateAuditEvidence: an audit's evidence is said sentence by
// sentence, a "; " inside a figure (where the load ran) kept whole, and
// each figure that is a message itself said again.
func TestRestateAuditEvidence(t *testing.T) {
	where := English.T("table.audit.where_driver", []int{1}, []int{0})
	burst := English.T("table.audit.burst", where, 800.0, 400.0, 1.5, 0, 0, 1600.0, "3s", 4000, 10, 10, 0, 0, 20.0, 40.0)
	in := burst + "; " + English.T("table.audit.tool_busy", 95.0)
	want := Vietnamese.T("table.audit.burst", Vietnamese.T("table.audit.where_driver", []int{1}, []int{0}), 800.0, 400.0, 1.5, 0, 0, 1600.0, "3s", 4000, 10, 10, 0, 0, 20.0, 40.0) +
		"; " + Vietnamese.T("table.audit.tool_busy", 95.0)
	if got := Vietnamese.Restate(in); got != want {
		t.Errorf("Restate(%q)\n = %q\nwant %q", in, got, want)
	}
	cold := English.T("table.audit.at_once", 50, "/items/1", "50 × 200") + "; " + English.T("table.audit.spread", "1.0 ms", "2.0 ms", "3.0 ms") +
		"; " + English.T("table.audit.grew_not_cold", "db_queries_total", 0.0)
	wantCold := Vietnamese.T("table.audit.at_once", 50, "/items/1", "50 × 200") + "; " + Vietnamese.T("table.audit.spread", "1.0 ms", "2.0 ms", "3.0 ms") +
		"; " + Vietnamese.T("table.audit.grew_not_cold", "db_queries_total", 0.0)
	if got := Vietnamese.Restate(cold); got != wantCold {
		t.Errorf("Restate(%q)\n = %q\nwant %q", cold, got, wantCold)
	}
}

// auditNames are the words the audit's Vietnamese keeps besides the
// glossary's: HTTP's own names (methods, headers, their values), the
// audit's flags and the code's names, units, and the words the glossary's
// rows hold in their second column only.
var auditNames = strings.Fields(`
	GET POST HTTP JSON ETag If None Match Content Encoding Type Accept Cache Control Last Modified Expires Vary Age
	Connection close Retry After gzip br CDN docs scaling md README
	metrics queries URL cold change post process cpu seconds total
	MiB ms req CPU max request response connection server timeout route path query
	so
`) // "so": Vietnamese too ("so với", compared with), written in ASCII letters

// TestAuditWordsInVietnamese: every message of the audit's table says its
// English words in Vietnamese but for the glossary's loanwords and
// auditNames — every key, not only those a test server reaches.
func TestAuditWordsInVietnamese(t *testing.T) {
	kept, err := messagestest.GlossaryWords(filepath.Join("..", "..", ".."), auditNames...)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range auditWords {
		e, v := verbRE.ReplaceAllString(w.en, " "), verbRE.ReplaceAllString(w.vi, " ")
		if left := messagestest.EnglishLeft(e, v, kept); len(left) > 0 {
			t.Errorf("%s: %q keeps the English %q", w.key, w.vi, left)
		}
	}
}
