package stalewindow

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// versions is a stand-in fleet: a reader serves "old" until `after`
// after the write returned (negative: never).
type versions struct {
	mu      sync.Mutex
	written time.Time
}

func (v *versions) reader(after time.Duration) Read {
	return func(context.Context) (string, error) {
		v.mu.Lock()
		defer v.mu.Unlock()
		if after >= 0 && !v.written.IsZero() && time.Since(v.written) >= after {
			return "new", nil
		}
		return "old", nil
	}
}

// One reader new at once, one late, one never: 0, about the delay, the
// limit. In a synctest bubble: the delays are fake time, so a loaded
// machine cannot stretch them.
func TestMeasureTellsEachReadersDelay(t *testing.T) { synctest.Test(t, measureTellsEachReadersDelay) }

func measureTellsEachReadersDelay(t *testing.T) {
	v := &versions{}
	const late = 30 * time.Millisecond
	readers := []Read{v.reader(0), v.reader(late), v.reader(-1)}
	write := func(context.Context) error {
		v.mu.Lock()
		v.written = time.Now()
		v.mu.Unlock()
		return nil
	}
	p := Poll{Pause: 200 * time.Microsecond, Limit: 300 * time.Millisecond}
	r, err := Measure(t.Context(), readers, write, p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stale[0] > late/2 {
		t.Errorf("a reader new as soon as the write returned was stale %v, want about 0", r.Stale[0])
	}
	if r.Stale[1] < late/2 || r.Stale[1] >= p.Limit {
		t.Errorf("a reader new %v after the write was stale %v, want about %v", late, r.Stale[1], late)
	}
	if r.Stale[2] != p.Limit {
		t.Errorf("a reader never new was stale %v, want the limit %v", r.Stale[2], p.Limit)
	}
	if r.Polls < 3 {
		t.Errorf("%d polls counted, want the reads made", r.Polls)
	}
}

// A failed write is the error, at once; a failed read is in the error.
func TestMeasureReportsFailures(t *testing.T) {
	v := &versions{}
	boom := errors.New("refused")
	start := time.Now()
	_, err := Measure(t.Context(), []Read{v.reader(-1)}, func(context.Context) error { return boom }, Poll{Pause: time.Millisecond, Limit: time.Minute})
	if !errors.Is(err, boom) || time.Since(start) > 10*time.Second {
		t.Errorf("a failed write: %v after %v, want its error at once", err, time.Since(start))
	}
	calls := 0
	flaky := func(context.Context) (string, error) {
		if calls++; calls > 1 {
			return "", boom
		}
		return "old", nil
	}
	if _, err := Measure(t.Context(), []Read{flaky}, func(context.Context) error { return nil }, Poll{Limit: time.Minute}); !errors.Is(err, boom) {
		t.Errorf("a reader failed while polled: %v, want its error", err)
	}
}

// No read is in flight while the write runs: one that missed memory would
// load the row across the write, and could put the old row back into
// Redis after the write's DEL (cache-aside's race, not the answer's).
func TestNoReadRunsDuringTheWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		inFlight, overlapped, written := 0, 0, false
		read := func(context.Context) (string, error) {
			mu.Lock()
			inFlight++
			mu.Unlock()
			time.Sleep(time.Millisecond) // a load from the database
			mu.Lock()
			defer mu.Unlock()
			inFlight--
			return map[bool]string{false: "old", true: "new"}[written], nil
		}
		write := func(context.Context) error {
			for range 10 { // the write's own round trips
				mu.Lock()
				overlapped += inFlight
				mu.Unlock()
				time.Sleep(time.Millisecond)
			}
			mu.Lock()
			written = true
			mu.Unlock()
			return nil
		}
		if _, err := Measure(t.Context(), []Read{read, read, read}, write, Poll{Pause: 100 * time.Microsecond, Limit: time.Second}); err != nil {
			t.Fatal(err)
		}
		if overlapped > 0 {
			t.Errorf("reads were in flight %d times the write looked, want none", overlapped)
		}
	})
}
