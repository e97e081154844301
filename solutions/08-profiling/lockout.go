// Package lockout is step 8's reference: the shipped login service with its
// lock shrunk to what it protects. The profile showed the whole password
// check — ~20 ms of PBKDF2 — inside the guard's critical section, so every
// login waited for the one before it: one CPU busy, the others idle, as
// pbkdf2Sync held Node's single event loop in the guide article C
// summarises. The guide's fix, carried by C: let the slow work run beside
// other requests (async pbkdf2; C does not say why that serves more). In Go
// it is enough to stop holding the lock.
package lockout

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is a password check behind a lockout: at most maxFailures guesses
// per account, concurrent ones included.
type Guard struct {
	mu          sync.Mutex
	users       *accounts.Directory
	failures    map[string]int
	inFlight    map[string]int // checks running now: each may become a failure
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, inFlight: map[string]int{}, maxFailures: maxFailures}
}

// Login holds the lock twice, briefly: to reserve an attempt, and to record
// its outcome. The slow check runs between, unlocked, so logins proceed in
// parallel. The reservation is what keeps the lockout exact: a guess counts
// against the account from the moment it starts, so a burst of concurrent
// guesses cannot all pass the check before the first one fails. (Simply
// unlocking around Verify would let that burst through.)
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	if g.failures[email]+g.inFlight[email] >= g.maxFailures {
		g.mu.Unlock()
		return accounts.ErrLockedOut
	}
	g.inFlight[email]++
	g.mu.Unlock()

	err := g.users.Verify(email, password) // the slow part, beside other logins

	g.mu.Lock()
	defer g.mu.Unlock()
	if g.inFlight[email]--; g.inFlight[email] == 0 {
		delete(g.inFlight, email)
	}
	if err != nil {
		g.failures[email]++
		return err
	}
	delete(g.failures, email)
	return nil
}
