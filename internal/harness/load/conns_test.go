package load

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/probe/probetest"
)

// guard is a generous bound for "stops within a second": the machine is
// shared, so the test reports what it saw and fails only far beyond it.
const guard = 5 * time.Second

// A server that never answers holds neither loop past its window: the
// users still waiting are cut StopGrace after it, though a request's own
// timeout is 30 s and fasthttp would retry a GET five times.
func TestAHangingServerDoesNotHoldTheRun(t *testing.T) {
	target := probetest.Hang(t)
	for _, open := range []bool{false, true} {
		o := Options{Target: target, VUs: 4, Duration: 300 * time.Millisecond}
		drive := Drive
		if open {
			o.Rate, drive = 50, DriveOpen
		}
		t0 := time.Now()
		r, err := drive(t.Context(), o, Variant{Name: "hang", Path: "/"}, func(string) {})
		took := time.Since(t0)
		t.Logf("open=%v: returned after %s: %d requests, %d errors, first %q, err %v", open, took, r.Requests, r.Errors, r.FirstError, err)
		if took > guard {
			t.Errorf("open=%v: a 300 ms window against a hanging server took %s", open, took)
		}
		if !open && r.Requests != 0 {
			t.Errorf("closed loop counted %d answers from a server that gave none", r.Requests)
		}
		if open && r.Errors == 0 {
			t.Errorf("open loop: requests due and never answered must count as errors")
		}
	}
}

// Ctrl-C stops every user within a second, whatever the server does.
func TestCancelStopsUsersOfAHangingServer(t *testing.T) {
	target := probetest.Hang(t)
	for _, open := range []bool{false, true} {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(300*time.Millisecond, cancel)
		o := Options{Target: target, VUs: 4, Duration: time.Minute, Warmup: 100 * time.Millisecond}
		drive := Drive
		if open {
			o.Rate, drive = 50, DriveOpen
		}
		t0 := time.Now()
		_, err := drive(ctx, o, Variant{Name: "hang", Path: "/"}, func(string) {})
		took := time.Since(t0)
		t.Logf("open=%v: cancelled at 300 ms, returned after %s: %v", open, took, err)
		if took > guard {
			t.Errorf("open=%v: cancelled at 300 ms, returned after %s", open, took)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("open=%v: err %v, want it to say it was interrupted", open, err)
		}
	}
}

// NoRetry and RequestTimeout are the caller's: one request, one attempt.
func TestNoRetrySendsOnce(t *testing.T) {
	target := probetest.Hang(t)
	o := Options{Target: target, VUs: 1, Iterations: 1, RequestTimeout: 200 * time.Millisecond, NoRetry: true}
	t0 := time.Now()
	r, err := Drive(t.Context(), o, Variant{Name: "hang", Path: "/"}, func(string) {})
	t.Logf("%s: %+v %v", time.Since(t0), r.FirstError, err)
	if r.Errors != 1 || time.Since(t0) > guard {
		t.Errorf("one request with a 200 ms timeout and no retry: %d errors after %s", r.Errors, time.Since(t0))
	}
}

// IPv6 loopback, which the probe's loopback rule admits, can be loaded.
func TestDrivesIPv6Loopback(t *testing.T) {
	url := probetest.ServeIPv6(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	r, err := Drive(t.Context(), Options{Target: url, VUs: 2, Iterations: 20}, Variant{Name: "v6", Path: "/"}, func(string) {})
	if err != nil || r.Errors != 0 || r.Requests != 20 {
		t.Fatalf("%s: %d requests, %d errors (%s), %v", url, r.Requests, r.Errors, r.FirstError, err)
	}
}
