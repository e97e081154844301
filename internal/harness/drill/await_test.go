package drill

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// The wait ends on the first answer, tells a server that exited from one
// that stayed silent, and gives up after its bound (in a bubble: no wall
// clock decides).
func TestAwaitAnswerTellsAnsweredExitedAndSilent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, open := context.Background(), make(chan struct{})
		calls := 0
		third := func() error {
			if calls++; calls < 3 {
				return errors.New("not yet")
			}
			return nil
		}
		if err := awaitAnswer(ctx, open, time.Second, 10*time.Millisecond, third); err != nil || calls != 3 {
			t.Errorf("answering at the third ping: %v after %d pings, want nil after 3", err, calls)
		}
		never := func() error { return errors.New("no") }
		exited := make(chan struct{})
		close(exited)
		if err := awaitAnswer(ctx, exited, time.Second, 10*time.Millisecond, never); err != errExited {
			t.Errorf("a server that exited: %v, want errExited", err)
		}
		start := time.Now()
		if err := awaitAnswer(ctx, open, time.Second, 10*time.Millisecond, never); err != errSilent || time.Since(start) < time.Second {
			t.Errorf("a silent server: %v after %v, want errSilent after the 1 s bound", err, time.Since(start))
		}
	})
}
