// count_before_verify: counts the guess as a failure before checking it and forgives it on success: the same reservation, in one map
// vi: đếm lần đoán là một lần fail trước khi kiểm tra và tha cho nó nếu thành công: cùng cách giữ chỗ, trong một map

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

// Login counts the attempt as a failure first, and clears it on success.
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	if g.failures[email] >= g.maxFailures {
		g.mu.Unlock()
		return accounts.ErrLockedOut
	}
	g.failures[email]++ // pessimistic: a failure until proven otherwise
	g.mu.Unlock()

	if err := g.users.Verify(email, password); err != nil {
		return err
	}
	g.mu.Lock()
	delete(g.failures, email)
	g.mu.Unlock()
	return nil
}
