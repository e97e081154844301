package load

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/peakload/workshop/internal/harness/result"
)

// Coordinated omission, proved: the same 200 ms stall in the middle of a
// one-second window, on a server that otherwise answers in 1 ms. The
// closed loop's users wait it out and send nothing meanwhile, so only their
// 4 stalled requests are slow and p99 stays at the service time. The open
// loop times each request from when it was due: the ~100 of the window's
// 500 that fell due during the stall left late (its senders were held too),
// are counted as missing the schedule, and their wait shows in its p99. Both runs sit in a synctest bubble over in-memory pipes:
// the fake clock moves only when every goroutine waits, so every figure is
// exact, whatever else the machine is doing.
func TestOpenLoopCorrectsCoordinatedOmission(t *testing.T) {
	const stall = 200 * time.Millisecond
	run := func(open bool) (r result.Run) {
		synctest.Test(t, func(t *testing.T) {
			start := time.Now()
			stalled := stallFrom(start.Add(500*time.Millisecond), stall)
			hold := func(now time.Time) time.Duration { return max(stalled(now), time.Millisecond) }
			o := Options{VUs: 4, Duration: time.Second, Warmup: 100 * time.Millisecond,
				Target: "http://pipe:80", dial: pipeServer(hold)}
			var err error
			if open {
				o.Rate, o.MaxInFlight = 500, 200
				r, err = DriveOpen(t.Context(), o, Variant{Name: "open", Path: "/"}, func(string) {})
			} else {
				r, err = Drive(t.Context(), o, Variant{Name: "closed", Path: "/"}, func(string) {})
			}
			defer time.Sleep(2 * time.Minute) // fasthttp's idle cleaner returns after a minute
			if err != nil {
				t.Fatal(err)
			}
		})
		return r
	}
	closed, open := run(false), run(true)
	t.Logf("closed loop: %d requests, p50 %.2f p99 %.2f max %.1f ms", closed.Requests, closed.Latency.P50, closed.Latency.P99, closed.Latency.Max)
	t.Logf("open loop:   %d requests, p50 %.2f p99 %.2f max %.1f ms, %+v", open.Requests, open.Latency.P50, open.Latency.P99, open.Latency.Max, *open.Arrival)
	if closed.Latency.Max < 150 {
		t.Fatalf("the closed loop never saw the stall (max %.1f ms): the test server did not stall", closed.Latency.Max)
	}
	if closed.Latency.P99 >= 100 {
		t.Fatalf("closed loop p99 %.1f ms: expected it to hide the stall (its users stop sending during it)", closed.Latency.P99)
	}
	if open.Latency.P99 < 100 {
		t.Fatalf("open loop p99 %.1f ms: the requests due during the 200 ms stall must be timed from when they were due", open.Latency.P99)
	}
	if a := open.Arrival; a.Missed < 90 || a.Missed > 100 || a.Stalled != 0 {
		t.Fatalf("open loop: %d requests missed the schedule, %d counted as the driver's own stalls; want the ~100 due during the 200 ms stall, none the driver's", a.Missed, a.Stalled)
	}
	if open.Arrival.Scheduled != 500 || open.Requests+open.Arrival.NotSent != 500 {
		t.Fatalf("open loop: %d scheduled, %d answered, %d not sent; want all 500 of the window accounted for", open.Arrival.Scheduled, open.Requests, open.Arrival.NotSent)
	}
	// What fell due during the stall leaves at once when it ends: the driver
	// must have grown past its 4 starting senders to send it.
	if open.Arrival.InFlightUsed <= 4 {
		t.Fatalf("open loop stayed at %d senders: the requests due during the stall cannot have left when it ended", open.Arrival.InFlightUsed)
	}
}

// With no room to grow, the requests due during a stall cannot leave on
// time: they are counted as missing the schedule, not dropped, and their
// latency still runs from when they were due. The run sits in a synctest
// bubble over in-memory pipes: the fake clock moves only when every
// goroutine waits, so the driver itself is never late and every count is
// exact, whatever else the machine is doing.
func TestOpenLoopCountsMissedSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		o := Options{Target: "http://pipe:80", VUs: 2, MaxInFlight: 2, Rate: 500, Duration: 800 * time.Millisecond,
			Warmup: 100 * time.Millisecond, dial: pipeServer(stallFrom(start.Add(300*time.Millisecond), 200*time.Millisecond))}
		r, err := DriveOpen(t.Context(), o, Variant{Name: "open", Path: "/"}, func(string) {})
		// fasthttp's idle-connection cleaner sleeps a minute before it sees
		// none left and returns; the bubble must outlive it.
		defer time.Sleep(2 * time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		a := r.Arrival
		t.Logf("%d requests, p99 %.1f ms, %+v", r.Requests, r.Latency.P99, *a)
		if a.InFlightUsed != 2 {
			t.Fatalf("%d senders, want exactly MaxInFlight 2", a.InFlightUsed)
		}
		// The stall holds the slots due 301, 303 … 499 ms after start (t0
		// is start + 5 ms, one slot every 2 ms): 100 of them. The first two
		// left on time and were held; the one due at 499 ms leaves at 500,
		// 1 ms late, within LateAfter. The other 97 missed the schedule.
		if a.Missed != 97 {
			t.Fatalf("%d requests missed the schedule, want the 97 due during the 200 ms stall that could not leave on time", a.Missed)
		}
		// Their senders were held by the server: late, but not the
		// driver's own delay (Arrival.Stalled counts only requests sent
		// late after their sender was ready). On the fake clock the driver
		// is never late on its own.
		if a.Stalled != 0 {
			t.Fatalf("%d late, %d of them counted as the driver's own stalls: those the server held are not", a.Missed, a.Stalled)
		}
		if r.Requests+a.NotSent != a.Scheduled || a.Scheduled != 400 || a.NotSent != 0 {
			t.Fatalf("%d answered + %d not sent, %d scheduled: want 400 + 0 = 400", r.Requests, a.NotSent, a.Scheduled)
		}
		if r.Latency.P99 < 150 {
			t.Fatalf("p99 %.1f ms: late requests must be timed from when they were due (the first waited ~198 ms)", r.Latency.P99)
		}
	})
}

// On a quick server the schedule is kept: the achieved rate is the
// intended one and nothing is late. The run sits in a synctest bubble over
// in-memory pipes, so that holds exactly however busy the machine is.
func TestOpenLoopKeepsTheSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var served atomic.Int64
		hold := func(time.Time) time.Duration { served.Add(1); return 0 }
		o := Options{Target: "http://pipe:80", VUs: 8, Rate: 400, Duration: 500 * time.Millisecond,
			Warmup: 100 * time.Millisecond, dial: pipeServer(hold)}
		r, err := DriveOpen(t.Context(), o, Variant{Name: "open", Path: "/"}, func(string) {})
		defer time.Sleep(2 * time.Minute) // fasthttp's idle cleaner returns after a minute
		if err != nil {
			t.Fatal(err)
		}
		a := r.Arrival
		if a.Scheduled != 200 || r.Requests != 200 || r.Errors != 0 || a.NotSent != 0 || a.Missed != 0 {
			t.Fatalf("%d scheduled, %d answered, %d errors, %d not sent, %d late; want 200, 200, 0, 0, 0", a.Scheduled, r.Requests, r.Errors, a.NotSent, a.Missed)
		}
		if got := served.Load(); got != 240 { // 40 of warm-up, 200 measured
			t.Fatalf("server saw %d requests, want 240: the schedule sends exactly rate × (warm-up + window)", got)
		}
		if a.AchievedRPS != 400 {
			t.Fatalf("achieved %.1f req/s of 400 scheduled", a.AchievedRPS)
		}
	})
}

// A server that answers nothing within the window's grace: what could not
// be sent is counted as not sent, every due request is accounted for, and
// none of them is timed from anything but its due time.
func TestOpenLoopAccountsForWhatItNeverSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hold := func(time.Time) time.Duration { return time.Second }
		o := Options{Target: "http://pipe:80", VUs: 2, MaxInFlight: 2, Rate: 200, Duration: 300 * time.Millisecond,
			dial: pipeServer(hold)}
		r, err := DriveOpen(t.Context(), o, Variant{Name: "stuck", Path: "/"}, func(string) {})
		defer time.Sleep(2 * time.Minute) // fasthttp's idle cleaner, the held server's sleeps
		if err != nil {
			t.Fatal(err)
		}
		a := r.Arrival
		t.Logf("%d answered, p50 %.0f ms, %+v", r.Requests, r.Latency.P50, *a)
		if a.Scheduled != 60 || r.Requests+a.NotSent != 60 || a.NotSent < 50 {
			t.Fatalf("%d scheduled, %d answered, %d not sent: want 60 = answered + not sent, most of them not sent", a.Scheduled, r.Requests, a.NotSent)
		}
		if r.Latency.P50 < 250 {
			t.Fatalf("p50 %.0f ms: the requests never sent waited at least the window's grace", r.Latency.P50)
		}
	})
}
