// trylock_busy: answers ErrLockedOut when the lock is busy (TryLock) instead of waiting: a login that arrives during another one is refused
// vi: trả ErrLockedOut khi lock đang bận (TryLock) thay vì chờ: một lượt login tới đúng lúc lượt khác đang chạy bị từ chối

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
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, maxFailures: maxFailures}
}

// Login refuses when another login holds the lock.
func (g *Guard) Login(email, password string) error {
	if !g.mu.TryLock() {
		return accounts.ErrLockedOut
	}
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
