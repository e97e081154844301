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
	f := Finding{Practice: fmt.Sprintf("a cold key: %d concurrent identical requests coalesce", c.Cold), Step: "2 cache-aside, 4 singleflight"}
	var before proc.Counters
	if c.MetricsURL != "" && c.Queries != "" {
		var err error
		if before, err = proc.ScrapeURL(ctx, c.MetricsURL); err != nil {
			f.Mark, f.Verdict, f.Evidence = NotJudged, "not judged", err.Error()
			return f
		}
	}
	change := ""
	if method, path, ok := strings.Cut(c.Change, " "); ok {
		a, err := c.send(ctx, client, method, path, nil, nil)
		if err != nil {
			f.Mark, f.Verdict, f.Evidence = NotJudged, "not judged", "the change: "+err.Error()
			return f
		}
		change = fmt.Sprintf("after %s → %d, ", c.Change, a.status)
		if before != nil { // the change's own queries are not the stampede's
			before, _ = proc.ScrapeURL(ctx, c.MetricsURL)
		}
	}
	statuses, spread := stampede(ctx, c, client)
	f.Evidence = fmt.Sprintf("%s%d × GET %s at once → %s; latency %s", change, c.Cold, c.ColdPath, statuses, spread)
	if before == nil {
		f.Mark, f.Verdict = NotJudged, "not judged"
		f.Evidence += "; name the service's query counter (-metrics URL -queries NAME) to count the misses"
		return f
	}
	time.Sleep(100 * time.Millisecond) // a query still finishing is counted when it ends
	after, err := proc.ScrapeURL(ctx, c.MetricsURL)
	if err != nil {
		f.Mark, f.Verdict, f.Evidence = NotJudged, "not judged", err.Error()
		return f
	}
	q := proc.Delta(before, after, c.Queries)
	f.Evidence += fmt.Sprintf("; %s grew by %.0f", c.Queries, q)
	switch {
	case q == 0:
		f.Mark, f.Verdict = NotJudged, "not judged"
		f.Evidence += ": the key was not cold (cached before the audit): give -cold a path nobody has read, or -change a write that invalidates it"
	case q <= 2:
		f.Mark, f.Verdict = Pass, fmt.Sprintf("coalesced ✓ (%.0f for %d)", q, c.Cold)
	default:
		f.Mark, f.Verdict = Missing, fmt.Sprintf("stampede: %.0f queries for %d", q, c.Cold)
	}
	return f
}

// stampede sends c.Cold GETs released at the same instant and summarises
// their statuses and latencies.
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
	return strings.Join(parts, ", "), fmt.Sprintf("fastest %s, median %s, slowest %s", ms(lat[0]), ms(lat[len(lat)/2]), ms(lat[len(lat)-1]))
}
