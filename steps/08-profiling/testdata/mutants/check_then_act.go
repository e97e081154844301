// check_then_act: checks the lockout in one locked step and reserves the attempt in the next: a burst of guesses all pass the check before any has reserved, and each runs its password check
// vi: kiểm tra lockout trong một bước có lock và giữ chỗ cho lần thử ở bước sau: cả loạt lần đoán đều qua được bước kiểm tra trước khi có lần nào giữ chỗ, và lần nào cũng chạy kiểm tra mật khẩu

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is the login service.
type Guard struct {
	mu          sync.Mutex
	users       *accounts.Directory
	failures    map[string]int
	inFlight    map[string]int
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, inFlight: map[string]int{}, maxFailures: maxFailures}
}

// Login checks the password unless the account is locked.
func (g *Guard) Login(email, password string) error {
	if g.locked(email) {
		return accounts.ErrLockedOut
	}
	g.mu.Lock()
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
	delete(g.failures, email)
	return nil
}

func (g *Guard) locked(email string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.failures[email]+g.inFlight[email] >= g.maxFailures
}
