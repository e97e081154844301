// success_clears_every_account: a success clears the failures map, not the account's entry: one account's login unlocks every other account
// vi: một lần thành công xoá cả map số lần fail, không phải entry của tài khoản đó: login của một tài khoản mở khoá mọi tài khoản khác

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is a password check behind a lockout.
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

// Login reserves an attempt, checks unlocked, records the outcome.
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	if g.failures[email]+g.inFlight[email] >= g.maxFailures {
		g.mu.Unlock()
		return accounts.ErrLockedOut
	}
	g.inFlight[email]++
	g.mu.Unlock()

	err := g.users.Verify(email, password)

	g.mu.Lock()
	defer g.mu.Unlock()
	if g.inFlight[email]--; g.inFlight[email] == 0 {
		delete(g.inFlight, email)
	}
	if err != nil {
		g.failures[email]++
		return err
	}
	clear(g.failures) // a success forgives the failures
	return nil
}
