package audit

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/harness/probe"
	"github.com/peakload/workshop/internal/harness/proc"
)

// coldKey is steps 2 and 4's practice: N identical requests for a key
// nobody has read since it changed arrive at once. Without coalescing each
// one misses the cache and queries the database (a stampede); with it, one
// query serves them all. Only the service's own query counter can tell.
func coldKey(ctx context.Context, c Config, client *http.Client) Finding {
	f, _ := coldKeySeen(ctx, c, client)
	return f
}

// coldKeySeen is coldKey with what its requests got: how many were
// answered, and the first error (the audit's first requests, when the
// cold key is the URL's own path, end it on a service that answers none).
func coldKeySeen(ctx context.Context, c Config, client *http.Client) (f Finding, seen stampeded) {
	f = Finding{Practice: english("table.audit.p_cold", c.Cold), Step: "2 cache-aside, 4 singleflight"}
	notJudged := english("table.audit.not_judged")
	var before proc.Counters
	if c.MetricsURL != "" && c.Queries != "" {
		var err error
		if before, err = proc.ScrapeURL(ctx, c.MetricsURL); err != nil {
			f.Mark, f.Verdict, f.Evidence = NotJudged, notJudged, err.Error()
			return f, seen
		}
	}
	stampeded := func(statuses string) string { return english("table.audit.at_once", c.Cold, c.ColdPath, statuses) }
	if method, path, ok := strings.Cut(c.Change, " "); ok {
		a, err := c.send(ctx, client, method, path, nil, nil)
		if err != nil {
			f.Mark, f.Verdict, f.Evidence = NotJudged, notJudged, english("table.audit.change_failed", err.Error())
			return f, seen
		}
		stampeded = func(statuses string) string {
			return english("table.audit.at_once_after", c.Change, a.status, c.Cold, c.ColdPath, statuses)
		}
		if before != nil { // the change's own queries are not the stampede's
			before, _ = proc.ScrapeURL(ctx, c.MetricsURL)
		}
	}
	seen = stampede(ctx, c, client)
	f.Evidence = stampeded(seen.statuses) + "; " + seen.spread
	if before == nil {
		f.Mark, f.Verdict = NotJudged, notJudged
		f.Evidence += "; " + english("table.audit.name_counter")
		return f, seen
	}
	time.Sleep(100 * time.Millisecond) // a query still finishing is counted when it ends
	after, err := proc.ScrapeURL(ctx, c.MetricsURL)
	if err != nil {
		f.Mark, f.Verdict, f.Evidence = NotJudged, notJudged, err.Error()
		return f, seen
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
	return f, seen
}

// stampeded is what the cold key's requests got: their statuses and
// latencies (sentences of the evidence), how many were answered, and the
// first error.
type stampeded struct {
	statuses, spread string
	answered         int
	err              error
}

// stampede sends c.Cold GETs released at the same instant, each bounded by
// the probe's request timeout, and summarises what they got.
func stampede(ctx context.Context, c Config, client *http.Client) stampeded {
	var wg sync.WaitGroup
	start := make(chan struct{})
	lat := make([]time.Duration, c.Cold)
	codes := make([]int, c.Cold)
	errs := make([]error, c.Cold)
	for i := range c.Cold {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rctx, cancel := context.WithTimeout(ctx, probe.RequestTimeout)
			defer cancel()
			<-start
			t0 := time.Now()
			a, err := c.send(rctx, client, "GET", c.ColdPath, nil, nil)
			lat[i], codes[i], errs[i] = time.Since(t0), a.status, err
			if err != nil {
				codes[i] = 0
			}
		}()
	}
	close(start)
	wg.Wait()
	var seen stampeded
	count := map[int]int{}
	for i, s := range codes {
		count[s]++
		if s != 0 {
			seen.answered++
		} else if seen.err == nil {
			seen.err = errs[i]
		}
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
	seen.statuses = strings.Join(parts, ", ")
	seen.spread = english("table.audit.spread", ms(lat[0]), ms(lat[len(lat)/2]), ms(lat[len(lat)-1]))
	return seen
}
