package scenario

import (
	"fmt"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// authorRow is one Express or raw row of the author's README "Test
// Result" table (minhpq331/write-heavy-application at result.RepoCommit):
// Express and MongoDB in Docker on a 2-core laptop, 100 000 requests (or
// raw inserts) from 100 VUs. The figures are the README's, as printed.
type authorRow struct {
	Row      int     // the README's "No."
	HTTPS    float64 // "Http time (s)": the load, or the raw run
	AddS     float64 // "Additional time (s)": work after the load
	HTTPRPS  float64 // "Http RPS" (raw rows: inserts per second)
	OpsRPS   float64 // "Ops RPS": events persisted per second; 0 where the row has none
	MongoCPU float64 // "Mongo CPU", in % of one core; 0 where the row has none
}

// authorEvents is the README's --iterations (and raw-insert.js's count).
const authorEvents = 100_000

// authorRows maps our variants to the author's rows. raw-async and the
// sequential raw-bulk have none: the README gives raw-insert.js's async
// command but no result, and the author's raw bulk is the concurrent one.
var authorRows = map[course.Variant]authorRow{
	course.EmptyPost:         {Row: 2, HTTPS: 24.8, HTTPRPS: 4026},
	course.RawSeq:            {Row: 3, HTTPS: 38.2, HTTPRPS: 2620, MongoCPU: 52},
	course.Raw100:            {Row: 4, HTTPS: 12.1, HTTPRPS: 8264, MongoCPU: 135},
	course.RawBulkConcurrent: {Row: 8, HTTPS: 0.89, HTTPRPS: 111607, MongoCPU: 35},
	course.Sync:              {Row: 5, HTTPS: 50.9, HTTPRPS: 1962, MongoCPU: 36},
	course.Async:             {Row: 6, HTTPS: 42.3, AddS: 8.5, HTTPRPS: 2361, OpsRPS: 1968, MongoCPU: 35},
	course.Group:             {Row: 7, HTTPS: 25.1, AddS: 12.3, HTTPRPS: 3982, OpsRPS: 2673, MongoCPU: 135},
	course.Bulk:              {Row: 9, HTTPS: 26.7, AddS: 1, HTTPRPS: 3742, OpsRPS: 3610, MongoCPU: 3},
}

// ops is the row's persisted rate: its "Ops RPS", or its HTTP rate where
// every request was persisted before the answer (sync, the raw rows).
func (a authorRow) ops() float64 {
	if a.OpsRPS > 0 {
		return a.OpsRPS
	}
	return a.HTTPRPS
}

// busyS is how long the author's MongoDB worked for the row: the load and
// the additional time, except for group, which inserts only after the load
// (its 135 % is raw group's, the same 100-at-a-time inserts).
func (a authorRow) busyS() float64 {
	if a.Row == 7 {
		return a.AddS
	}
	return a.HTTPS + a.AddS
}

// dbCPUus is the author's MongoDB CPU per event, our arithmetic: the
// column's share of a core × the time it worked ÷ the 100 000 events. The
// column is rounded to whole percent; at = ±0.5 gives its bounds.
func (a authorRow) dbCPUus(at float64) float64 {
	return (a.MongoCPU + at) / 100 * a.busyS() * 1e6 / authorEvents
}

// authorCPURatio is the author's sync ÷ bulk MongoDB CPU per event (our
// arithmetic from rows 5 and 9), with its least value given the column's
// rounding: 36 % and 3 % may be 35.5 % and 3.49 %.
func authorCPURatio() (ratio, least float64) {
	s, b := authorRows[course.Sync], authorRows[course.Bulk]
	return s.dbCPUus(0) / b.dbCPUus(0), s.dbCPUus(-0.5) / b.dbCPUus(0.5)
}

// writeTables sets the author's rows beside ours, variant by variant.
func writeTables(r *result.Result) []result.Table {
	t := result.Table{
		Title: messages.English.T("table.writes.title", result.RepoCommit),
		Header: messages.English.Words("table.col.variant", "table.writes.row", "table.col.rps", "table.writes.persisted", "table.writes.vs_sync",
			"table.writes.additional", "table.writes.cpu_share", "table.writes.cpu_us"),
		Notes: messages.English.Words("table.writes.note_raw", "table.writes.note_cpu"),
	}
	for _, x := range r.Runs {
		a, ok := authorRows[x.Variant]
		base := course.Sync
		if x.Tool == "direct" {
			base = course.RawSeq
		}
		ours := extra(&x, result.PersistedPerS)
		row := []string{string(x.Variant), "–", pair(0, x.RPS, "%.0f"), pair(0, ours, "%.0f"),
			pair(0, ratio(ours, extra(find(r, base), result.PersistedPerS)), "%.2f×"),
			pair(0, extra(&x, result.AdditionalS), "%.1f"), pair(0, 100*extra(&x, result.DBCPUShare), "%.0f %%"),
			pair(0, extra(&x, result.DBCPUusPerDoc), "%.0f")}
		if ok {
			row[1] = fmt.Sprint(a.Row)
			row[2] = pair(a.HTTPRPS, x.RPS, "%.0f")
			if x.Variant != course.EmptyPost {
				row[3] = pair(a.ops(), ours, "%.0f")
				row[4] = pair(ratio(a.ops(), authorRows[base].ops()), ratio(ours, extra(find(r, base), result.PersistedPerS)), "%.2f×")
			}
			row[5] = pair(a.AddS, extra(&x, result.AdditionalS), "%.1f")
			row[6] = pair(a.MongoCPU, 100*extra(&x, result.DBCPUShare), "%.0f %%")
			row[7] = pair(a.dbCPUus(0), extra(&x, result.DBCPUusPerDoc), "%.0f") // 0 (a dash) without a Mongo CPU
		}
		t.Rows = append(t.Rows, row)
	}
	return []result.Table{t}
}

// pair prints "author / ours", a dash for a figure that is not there.
func pair(author, ours float64, format string) string {
	return dash(author, format) + " / " + dash(ours, format)
}

func dash(v float64, format string) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf(format, v)
}
