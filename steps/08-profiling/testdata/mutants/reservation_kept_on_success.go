// reservation_kept_on_success: releases the reservation only when the guess fails: every successful login leaves an attempt in flight forever, and the account locks itself
// vi: chỉ trả chỗ đã giữ khi lần đoán fail: mỗi lượt login thành công để lại một lần thử đang chạy mãi mãi, và tài khoản tự khoá mình

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
	inFlight    map[string]int
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, inFlight: map[string]int{}, maxFailures: maxFailures}
}

// Login reserves the attempt under the lock and checks the password unlocked.
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
	if err != nil {
		g.inFlight[email]--
		g.failures[email]++
		return err
	}
	delete(g.failures, email)
	return nil
}
