// off_by_one: refuses only once failures and guesses in flight exceed maxFailures: every account gets one guess more than the lockout allows
// vi: chỉ từ chối khi số lần fail cộng số lần đoán đang chạy vượt quá maxFailures: tài khoản nào cũng được đoán thêm một lần so với mức lockout cho phép

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
	g.mu.Lock()
	if g.failures[email]+g.inFlight[email] > g.maxFailures {
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
	delete(g.failures, email)
	return nil
}
