// WRONG: a guess is counted as a failure up front and a success only gives back its own count (failures--): a success does not clear the earlier failures

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is your copy of the shipped login service.
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

func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	if g.failures[email] >= g.maxFailures {
		g.mu.Unlock()
		return accounts.ErrLockedOut
	}
	g.failures[email]++ // counted now: a guess in its check is a failure until it succeeds
	g.mu.Unlock()

	if err := g.users.Verify(email, password); err != nil {
		return err
	}
	g.mu.Lock()
	g.failures[email]-- // it was not a failure after all
	g.mu.Unlock()
	return nil
}
