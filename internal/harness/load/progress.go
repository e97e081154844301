package load

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/peakload/workshop/internal/given/messages"
)

// progress draws one live line per variant on a terminal ("\r" rewrites
// it); in a log (CI) it stays silent until the final line.
type progress struct {
	w     io.Writer
	tty   bool
	name  string
	users []*user
	total string
}

func newProgress(w io.Writer, name string, users []*user, o Options) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	total := messages.T("load.of_duration", o.Duration)
	if o.Iterations > 0 {
		total = messages.T("load.of_requests", o.Iterations)
	}
	return &progress{w: w, tty: tty, name: name, users: users, total: total}
}

func (p *progress) count() int64 {
	var n int64
	for _, u := range p.users {
		n += u.count.Load()
	}
	return n
}

func (p *progress) update(elapsed time.Duration) {
	if p.w == nil || !p.tty {
		return
	}
	n := p.count()
	fmt.Fprintf(p.w, "\r  %-22s %5.1fs %s  %9d req  %9.0f req/s ", p.name, elapsed.Seconds(), p.total, n, float64(n)/elapsed.Seconds())
}

func (p *progress) finish(elapsed time.Duration, n int64) {
	if p.w == nil {
		return
	}
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
	fmt.Fprintf(p.w, "  %-22s %5.1fs  %9d req  %9.0f req/s\n", p.name, elapsed.Seconds(), n, float64(n)/elapsed.Seconds())
}

// await redraws the line every half second until the run's duration is up
// (when it runs for a time, not a count), every user has stopped (done) or
// ctx is cancelled.
func (p *progress) await(ctx context.Context, o Options, done <-chan struct{}, start time.Time) {
	var deadline <-chan time.Time
	if o.Iterations == 0 {
		deadline = time.After(o.Duration)
	}
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-deadline:
			return
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-tick.C:
			p.update(time.Since(start))
		}
	}
}
