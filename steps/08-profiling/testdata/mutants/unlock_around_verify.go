// unlock_around_verify: holds the lock to read and to record, not around Verify, with nothing reserved in between: a burst of guesses all pass the lockout check before the first one fails
// vi: giữ lock khi đọc và khi ghi nhận, không giữ quanh Verify, và không giữ chỗ gì ở giữa: cả loạt lần đoán đều qua bước kiểm tra lockout trước khi lần đầu tiên fail

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

// Login checks the password unlocked.
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	locked := g.failures[email] >= g.maxFailures
	g.mu.Unlock()
	if locked {
		return accounts.ErrLockedOut
	}
	err := g.users.Verify(email, password)
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil {
		g.failures[email]++
		return err
	}
	delete(g.failures, email)
	return nil
}
