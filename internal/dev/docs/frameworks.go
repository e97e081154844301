package docs

import (
	"bytes"
	"fmt"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// bFrameworks is step 0's region "b-frameworks": article B's two
// frameworks' empty GET in step 0's reference run beside the author's
// README, and Express ÷ Koa on each side. The two sides rank the
// frameworks apart by different margins; the README tells what we know
// of why, the figures come from here so that they cannot drift.
func (r *references) bFrameworks(l messages.Lang) string {
	res := r.runs[0]
	stacks := []string{course.Express, course.Koa}
	here, theirs := map[string]*result.Run{}, map[string]float64{}
	var b bytes.Buffer
	b.WriteString(l.T("docs.bfw.head"))
	for _, name := range stacks {
		rps, rows, _ := scenario.AuthorEmptyGET(name, l)
		x := res.Find(course.On(name, course.EmptyGet))
		here[name], theirs[name] = x, rps
		if x == nil {
			fmt.Fprintf(&b, "| %s | %s | – | %s — %s |\n", name, l.T("docs.original_unrecorded", 0), scenario.Rate(rps), rows)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %.0f | %s — %s |\n", x.Variant, scenario.Rate(x.RPS), x.PerRequest.ServerCPUus, scenario.Rate(rps), rows)
	}
	ex, koa := here[course.Express], here[course.Koa]
	ratio := "–"
	if ex != nil && koa != nil && koa.RPS > 0 {
		ratio = fmt.Sprintf("%.2f×", ex.RPS/koa.RPS)
	}
	fmt.Fprintf(&b, "| express ÷ koa | %s | | %.2f× |\n\n", ratio, theirs[course.Express]/theirs[course.Koa])
	b.WriteString(l.T("docs.bfw.foot", res.StartedAt.Format("2006-01-02"), result.RepoCommit))
	return b.String()
}
