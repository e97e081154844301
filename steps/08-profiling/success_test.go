package main

import (
	"fmt"
	"testing"

	"github.com/peakload/workshop/internal/given/accounts"
)

// successBesideWaitingGuesses is the same promise when the wrong guesses
// are not in their password check beside the success but waiting for the
// account (a lock per account runs its logins one at a time): after the
// success, the guesses that start their check — those that waited and a
// burst of new ones — run at most maxFailures checks. An answer that
// forgets the account on success by dropping its state, lock and all, lets
// the waiting guesses count on the old state while new ones get a fresh
// one: twice the limit.
func successBesideWaitingGuesses(t *testing.T, limit, burst int) {
	t.Helper()
	r := newCheckRig(t, limit)
	right := r.start(0, true)
	if !r.until(func() bool { return right.release != nil }) {
		r.fatalf("%s, the account's only login, never reached its password check: %s", right, r.report([]*checkLogin{right}))
	}
	var guesses []*checkLogin
	for range burst {
		guesses = append(guesses, r.start(0, false))
	}
	r.settle()
	before := map[*checkLogin]bool{} // in their check beside the success: it may forgive them
	for _, l := range guesses {
		before[l] = l.checked
	}
	r.release(right)
	r.expect(right, nil, fmt.Sprintf("the right password, with %d wrong guesses started while it was in its check (maxFailures %d)", burst, limit))
	for range burst {
		guesses = append(guesses, r.start(0, false))
	}
	for r.settle(); len(r.held) > 0; r.settle() { // end the checks one at a time, oldest first
		r.release(r.held[0])
	}
	checked := checkedAmong(guesses, before)
	if len(checked) > limit {
		t.Fatalf("maxFailures %d: the right password for %s succeeded while %d wrong guesses waited for the account, then %d more came; "+
			"%d of them ran their password check after the success: at most %d may. The guesses that waited must count on the "+
			"same state as the new ones: a success clears the account's failures, it does not drop the account (its lock or state "+
			"with it) while logins still hold it (%s)",
			limit, accounts.DemoEmail(0), burst, burst, len(checked), limit, r.report(checked))
	}
}
