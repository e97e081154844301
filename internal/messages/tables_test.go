package messages

import (
	"strings"
	"testing"
	"unicode"
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
	for _, w := range tableWords {
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
