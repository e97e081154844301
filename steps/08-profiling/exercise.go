//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is your copy of the shipped login service (internal/given/accounts):
// a password check behind a lockout, so an attacker gets at most
// maxFailures guesses per account.
type Guard struct {
	mu          sync.Mutex
	users       *accounts.Directory
	failures    map[string]int
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, maxFailures: maxFailures}
}

// Login checks the password unless the account is locked; a failure counts
// towards the lockout, a success clears it.
//
// TODO(step 8): /v2/login serves no more logins per second than /v1 — about
// one CPU's worth, however many the server has. Don't guess why:
//
//	make step-8 profile
//
// records a CPU profile and a lock-contention profile of /v2/login under
// load. Fix here what they show. The lockout must stay exact: at most
// maxFailures guesses per account, even when they arrive all at once.
// Then: make step-8 check, make step-8 bench.
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failures[email] >= g.maxFailures {
		return accounts.ErrLockedOut
	}
	if err := g.users.Verify(email, password); err != nil {
		g.failures[email]++
		return err
	}
	delete(g.failures, email)
	return nil
}
