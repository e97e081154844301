// verify_before_lockout: runs the password check before looking at the lockout ("so timing does not reveal it"): a locked account still gets its guesses checked, and a burst all run at once
// vi: chạy kiểm tra mật khẩu trước khi xem lockout ("để timing không làm lộ lockout"): tài khoản đã khoá vẫn bị kiểm tra các lần đoán, và cả loạt lần đoán chạy cùng lúc

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
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, maxFailures: maxFailures}
}

// Login checks the password, then the lockout.
func (g *Guard) Login(email, password string) error {
	err := g.users.Verify(email, password)

	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failures[email] >= g.maxFailures {
		return accounts.ErrLockedOut
	}
	if err != nil {
		g.failures[email]++
		return err
	}
	delete(g.failures, email)
	return nil
}
