package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Counters is a /metrics scrape: every sample summed by metric name over
// its labels, plus "name{label=value}" keys for the labels a step asks for.
type Counters map[string]float64

// Scrape reads the server's Prometheus text exposition. It runs before and
// after each variant, outside the timed window, so it costs the run nothing.
func Scrape(ctx context.Context, target string) (Counters, error) {
	return ScrapeURL(ctx, target+"/metrics")
}

// scrapeTries bounds the readings of one scrape that time out: a server
// still answering the last of a row's requests on a loaded machine may
// miss one 5 s deadline (fasthttp under 500 users beside other work, seen
// in make test-originals); three missed in a row is a server that does not
// answer, and the error says so.
const scrapeTries = 3

// ScrapeURL reads Prometheus text from a metrics URL of any service (make
// probe's --metrics): the same parsing as a step server's /metrics.
func ScrapeURL(ctx context.Context, url string) (Counters, error) {
	var err error
	for try := 1; try <= scrapeTries; try++ {
		var c Counters
		if c, err = scrapeOnce(ctx, url); err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return c, err
		}
	}
	return nil, fmt.Errorf("%w (%d readings of %v each)", err, scrapeTries, scrapeTimeout)
}

// scrapeTimeout is one reading's deadline (a variable for its test).
var scrapeTimeout = 5 * time.Second

// scrapeClient reads the metrics (a variable for the series' tests, which
// answer without a socket, in a synctest bubble).
var scrapeClient = http.DefaultClient

func scrapeOnce(ctx context.Context, url string) (Counters, error) {
	ctx, cancel := context.WithTimeout(ctx, scrapeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := scrapeClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("scrape %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// A 404 (a server without /metrics) or a 500 must not read as
		// "every counter is zero": the per-request figures would lie.
		return nil, fmt.Errorf("scrape %s: %s", url, resp.Status)
	}
	c := Counters{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		sp := strings.LastIndexByte(line, ' ')
		if sp < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[sp+1:], 64)
		if err != nil {
			continue
		}
		series := line[:sp]
		name, labels, _ := strings.Cut(series, "{")
		c[name] += v
		if labels == "" {
			continue
		}
		// The whole series (labels sorted, as Prometheus exposes them), and
		// each label alone when there are several.
		c[name+"{"+strings.ReplaceAll(labels, `"`, "")] += v
		if pairs := strings.Split(strings.TrimSuffix(labels, "}"), ","); len(pairs) > 1 {
			for _, l := range pairs {
				c[name+"{"+strings.ReplaceAll(l, `"`, "")+"}"] += v
			}
		}
	}
	return c, sc.Err()
}

// Delta returns after - before for one key.
func Delta(before, after Counters, key string) float64 { return after[key] - before[key] }
