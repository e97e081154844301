package drill

import (
	"context"
	"errors"
	"time"
)

// errExited: the private server stopped on its own before it answered.
var errExited = errors.New("the server exited")

// errSilent: the private server did not answer within the wait.
var errSilent = errors.New("the server did not answer")

// awaitAnswer polls ping every pause until the private server a drill
// started answers: the one wait the drill's MongoDB and Redis share. It
// fails with errExited once done is closed (the process ended) and with
// errSilent past within or when ctx ends; the caller stops the server and
// says which, in the learner's words.
func awaitAnswer(ctx context.Context, done <-chan struct{}, within, pause time.Duration, ping func() error) error {
	deadline := time.Now().Add(within)
	for ping() != nil {
		select {
		case <-done:
			return errExited
		default:
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return errSilent
		}
		time.Sleep(pause)
	}
	return nil
}
