package result

import (
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
)

// The catalogue's table.* texts live here, since every printed result is
// restated here (Print), so Restate's tests do too.

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
		if got := messages.Vietnamese.Restate(in); got != want {
			t.Errorf("Restate(%q) = %q, want %q", in, got, want)
		}
		if got := messages.English.Restate(in); got != in {
			t.Errorf("messages.English.Restate(%q) = %q", in, got)
		}
	}
}

// TestRestateAuditEvidence: an audit's evidence is said sentence by
// sentence, a "; " inside a figure (where the load ran) kept whole, and
// each figure that is a message itself said again.
func TestRestateAuditEvidence(t *testing.T) {
	where := messages.English.T("table.audit.where_driver", []int{1}, []int{0})
	burst := messages.English.T("table.audit.burst", where, 800.0, 400.0, 1.5, 0, 0, 1600.0, "3s", 4000, 10, 10, 0, 0, 20.0, 40.0)
	in := burst + "; " + messages.English.T("table.audit.tool_busy", 95.0)
	want := messages.Vietnamese.T("table.audit.burst", messages.Vietnamese.T("table.audit.where_driver", []int{1}, []int{0}), 800.0, 400.0, 1.5, 0, 0, 1600.0, "3s", 4000, 10, 10, 0, 0, 20.0, 40.0) +
		"; " + messages.Vietnamese.T("table.audit.tool_busy", 95.0)
	if got := messages.Vietnamese.Restate(in); got != want {
		t.Errorf("Restate(%q)\n = %q\nwant %q", in, got, want)
	}
	cold := messages.English.T("table.audit.at_once", 50, "/items/1", "50 × 200") + "; " + messages.English.T("table.audit.spread", "1.0 ms", "2.0 ms", "3.0 ms") +
		"; " + messages.English.T("table.audit.grew_not_cold", "db_queries_total", 0.0)
	wantCold := messages.Vietnamese.T("table.audit.at_once", 50, "/items/1", "50 × 200") + "; " + messages.Vietnamese.T("table.audit.spread", "1.0 ms", "2.0 ms", "3.0 ms") +
		"; " + messages.Vietnamese.T("table.audit.grew_not_cold", "db_queries_total", 0.0)
	if got := messages.Vietnamese.Restate(cold); got != wantCold {
		t.Errorf("Restate(%q)\n = %q\nwant %q", cold, got, wantCold)
	}
}
