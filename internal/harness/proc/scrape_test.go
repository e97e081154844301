package proc

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// A reading that misses its deadline is taken again, up to scrapeTries;
// a server that never answers is an error that says how long it waited,
// and a wrong answer (a 404) is not retried.
func TestScrapeReadsAgainAfterATimeoutOnly(t *testing.T) {
	defer func(d time.Duration) { scrapeTimeout = d }(scrapeTimeout)
	scrapeTimeout = 50 * time.Millisecond
	var calls atomic.Int32
	slowFor := int32(1) // readings that time out before one answers
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		if n <= slowFor {
			<-r.Context().Done() // past the reading's deadline
			return
		}
		_, _ = w.Write([]byte("peakload_requests_total 7\n"))
	}))
	defer srv.Close()

	c, err := Scrape(context.Background(), srv.URL)
	if err != nil || c["peakload_requests_total"] != 7 || calls.Load() != 2 {
		t.Errorf("one slow reading, then an answer: %v, %v after %d readings; want the answer after 2", c, err, calls.Load())
	}
	calls.Store(0)
	slowFor = 99
	if _, err := Scrape(context.Background(), srv.URL); !errors.Is(err, context.DeadlineExceeded) || calls.Load() != scrapeTries {
		t.Errorf("a server that never answers: %v after %d readings; want a deadline error after %d", err, calls.Load(), scrapeTries)
	}
	calls.Store(0)
	if _, err := ScrapeURL(context.Background(), srv.URL+"/nope"); err == nil || calls.Load() != 1 {
		t.Errorf("a 404: %v after %d readings; want an error after 1", err, calls.Load())
	}
}
