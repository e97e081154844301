package audit

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/proc"
)

// coldKey is steps 2 and 4's practice: N identical requests for a key
// nobody has read since it changed arrive at once. Without coalescing each
// one misses the cache and queries the database (a stampede); with it, one
// query serves them all. Only the service's own query counter can tell.
func coldKey(ctx context.Context, c Config, client *http.Client) Finding {
	f := Finding{Practice: english("table.audit.p_cold", c.Cold), Step: "2 cache-aside, 4 singleflight"}
	notJudged := english("table.audit.not_judged")
	var before proc.Counters
	if c.MetricsURL != "" && c.Queries != "" {
		var err error
		if before, err = proc.ScrapeURL(ctx, c.MetricsURL); err != nil {
			f.Mark, f.Verdict, f.Evidence = NotJudged, notJudged, err.Error()
			return f
		}
	}
	stampeded := func(statuses string) string { return english("table.audit.at_once", c.Cold, c.ColdPath, statuses) }
	if method, path, ok := strings.Cut(c.Change, " "); ok {
		a, err := c.send(ctx, client, method, path, nil, nil)
		if err != nil {
			f.Mark, f.Verdict, f.Evidence = NotJudged, notJudged, english("table.audit.change_failed", err.Error())
			return f
		}
		stampeded = func(statuses string) string {
			return english("table.audit.at_once_after", c.Change, a.status, c.Cold, c.ColdPath, statuses)
		}
		if before != nil { // the change's own queries are not the stampede's
			before, _ = proc.ScrapeURL(ctx, c.MetricsURL)
		}
	}
	statuses, spread := stampede(ctx, c, client)
	f.Evidence = stampeded(statuses) + "; " + spread
	if before == nil {
		f.Mark, f.Verdict = NotJudged, notJudged
		f.Evidence += "; " + english("table.audit.name_counter")
		return f
	}
	time.Sleep(100 * time.Millisecond) // a query still finishing is counted when it ends
	after, err := proc.ScrapeURL(ctx, c.MetricsURL)
	if err != nil {
		f.Mark, f.Verdict, f.Evidence = NotJudged, notJudged, err.Error()
		return f
	}
	q := proc.Delta(before, after, c.Queries)
	switch {
	case q == 0:
		f.Mark, f.Verdict = NotJudged, notJudged
		f.Evidence += "; " + english("table.audit.grew_not_cold", c.Queries, q)
	case q <= 2:
		f.Mark, f.Verdict = Pass, english("table.audit.coalesced", q, c.Cold)
		f.Evidence += "; " + english("table.audit.grew", c.Queries, q)
	default:
		f.Mark, f.Verdict = Missing, english("table.audit.stampede", q, c.Cold)
		f.Evidence += "; " + english("table.audit.grew", c.Queries, q)
	}
	return f
}

// stampede sends c.Cold GETs released at the same instant and summarises
// their statuses and latencies (the spread, a sentence of the evidence).
func stampede(ctx context.Context, c Config, client *http.Client) (statuses, spread string) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	lat := make([]time.Duration, c.Cold)
	codes := make([]int, c.Cold)
	for i := range c.Cold {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			t0 := time.Now()
			a, err := c.send(ctx, client, "GET", c.ColdPath, nil, nil)
			lat[i], codes[i] = time.Since(t0), a.status
			if err != nil {
				codes[i] = 0
			}
		}()
	}
	close(start)
	wg.Wait()
	count := map[int]int{}
	for _, s := range codes {
		count[s]++
	}
	var parts []string
	for s, n := range count {
		name := fmt.Sprint(s)
		if s == 0 {
			name = "error"
		}
		parts = append(parts, fmt.Sprintf("%d × %s", n, name))
	}
	sort.Strings(parts)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	return strings.Join(parts, ", "), english("table.audit.spread", ms(lat[0]), ms(lat[len(lat)/2]), ms(lat[len(lat)-1]))
}
