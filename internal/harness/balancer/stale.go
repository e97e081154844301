package balancer

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/stalewindow"
)

// Stale is one of step 10's stale rows: no load; items are changed through
// the balancer, then every replica is polled directly, and the row records
// how long each kept serving the old ETag after the change was answered.
type Stale struct {
	Replicas int
	// Invalidation runs the replicas with the exercise (announce a change,
	// listen for the others'); the last replica then does not listen, as
	// one that missed the announcements: the TTL still bounds it. Without,
	// every replica keeps its copy up to the burst TTL.
	Invalidation bool
	Changes      int
	IDs          []int32 // the items changed, in turn (the hot ones)
	BurstTTL     time.Duration
	// Redis and Channel are where the listeners subscribe: the changes
	// start once every listener has (or after 3 s).
	Redis   *redis.Client
	Channel string
}

// RunStale starts the fleet, makes the changes and stops it.
func RunStale(ctx context.Context, s Spec, st Stale) (result.Run, error) {
	base, err := st.subscribers(ctx)
	if err != nil {
		return result.Run{}, err
	}
	f, err := StartFleet(ctx, s, st.Replicas, RoundRobin, st.replicaEnv)
	if err != nil {
		return result.Run{}, err
	}
	defer f.Stop()
	listeners := 0
	if st.Invalidation {
		listeners = st.Replicas - 1
	}
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if n, err := st.subscribers(ctx); err != nil || n >= base+int64(listeners) {
			break
		}
	}
	return f.changes(ctx, st)
}

// replicaEnv is replica i's switches (steps/10-scale-out/main.go).
func (st Stale) replicaEnv(i int) []string {
	switch {
	case !st.Invalidation:
		return []string{"PEAKLOAD_INVALIDATION=off"}
	case i == st.Replicas-1:
		return []string{"PEAKLOAD_LISTEN=off"}
	}
	return nil
}

// subscribers is how many connections listen on the replicas' channel.
func (st Stale) subscribers(ctx context.Context) (int64, error) {
	if st.Redis == nil {
		return 0, nil
	}
	m, err := st.Redis.PubSubNumSub(ctx, st.Channel).Result()
	return m[st.Channel], err
}

// staleness is what a stale row's changes found, in ms: the listening
// replicas' (every replica's without invalidation), and the one that
// missed the announcements.
type staleness struct {
	listening, missed []float64
	polls, errs       int64
	firstErr          string
}

// changes makes the changes one after the other and measures the
// staleness per replica.
func (f *Fleet) changes(ctx context.Context, st Stale) (result.Run, error) {
	n := len(f.Replicas)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	before, err := f.Scrape(ctx)
	if err != nil {
		return result.Run{}, err
	}
	var s staleness
	start := time.Now()
	for k := range st.Changes {
		got, err := f.changeAndPoll(ctx, client, st.IDs[k%len(st.IDs)], stalewindow.Limit(st.BurstTTL))
		s.polls += got.Polls
		if err != nil {
			if s.errs++; s.firstErr == "" {
				s.firstErr = err.Error()
			}
			continue
		}
		for i, d := range got.Stale {
			ms := float64(d.Microseconds()) / 1000
			if st.Invalidation && i == n-1 {
				s.missed = append(s.missed, ms)
			} else {
				s.listening = append(s.listening, ms)
			}
		}
	}
	elapsed := time.Since(start)
	after, err := f.Scrape(ctx)
	if err != nil {
		return result.Run{}, err
	}
	var forgets float64
	for i := range after {
		forgets += proc.Delta(before[i], after[i], "peakload_memory_forgets_total")
	}
	return s.row(st, n, elapsed, forgets), nil
}

// row is the stale row: its requests are the changes (its req/s, changes
// per second: the drill is not a load); the polls are an extra.
func (s staleness) row(st Stale, n int, elapsed time.Duration, forgets float64) result.Run {
	changes := float64(st.Changes)
	r := result.Run{Tool: "drill", VUs: n, Requests: int64(st.Changes), Errors: s.errs, FirstError: s.firstErr,
		DurationS: elapsed.Seconds(), RPS: changes / elapsed.Seconds()}
	r.Extra = map[result.Key]float64{
		result.Polls:            float64(s.polls),
		result.Replicas:         float64(n),
		result.Changes:          changes,
		result.StaleMSMax:       slices.Max(append(s.listening, 0)),
		result.StaleMSMean:      mean(s.listening),
		result.ForgetsPerChange: forgets / changes,
		result.BurstTTLMS:       float64(st.BurstTTL.Milliseconds()),
	}
	if len(s.missed) > 0 {
		r.Extra[result.StaleMissedMSMax] = slices.Max(s.missed)
		r.Extra[result.StaleMissedMSMean] = mean(s.missed)
	}
	return r
}

// changeAndPoll changes id through the balancer, then reads every replica
// directly in a loop (internal/harness/stalewindow, the loop step 10's
// check uses too), every millisecond.
func (f *Fleet) changeAndPoll(ctx context.Context, client *http.Client, id int32, limit time.Duration) (stalewindow.Result, error) {
	path := routes.Path(ItemRoute, int(id))
	readers := make([]stalewindow.Read, len(f.Replicas))
	for i, p := range f.Replicas {
		readers[i] = func(ctx context.Context) (string, error) { return etag(ctx, client, p.Target+path) }
	}
	change := func(ctx context.Context) error {
		return post(ctx, client, f.LB.Target+routes.Path(routes.Change, int(id)))
	}
	return stalewindow.Measure(ctx, readers, change, stalewindow.Poll{Pause: time.Millisecond, Limit: limit})
}

// etag GETs url and returns the ETag it was served.
func etag(ctx context.Context, client *http.Client, url string) (string, error) {
	resp, err := do(ctx, client, http.MethodGet, url)
	if err != nil {
		return "", err
	}
	return resp.Header.Get("ETag"), nil
}

// post POSTs to url (a change).
func post(ctx context.Context, client *http.Client, url string) error {
	_, err := do(ctx, client, http.MethodPost, url)
	return err
}

// do sends one request without a body and reads the answer's to the end;
// any status but 200 is an error.
func do(ctx context.Context, client *http.Client, method, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: HTTP %d", method, req.URL.Path, resp.StatusCode)
	}
	return resp, nil
}
