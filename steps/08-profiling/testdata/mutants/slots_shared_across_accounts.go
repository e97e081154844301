// slots_shared_across_accounts: maxFailures slots bound the password checks in flight of every account together, waited for: one account's burst of guesses blocks every other account's login
// vi: maxFailures slot giới hạn chung các lần kiểm tra mật khẩu đang chạy của mọi tài khoản, và phải chờ slot: một loạt lần đoán của một tài khoản chặn login của mọi tài khoản khác

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
	slots       chan struct{} // the checks in flight, at most maxFailures
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, slots: make(chan struct{}, maxFailures), maxFailures: maxFailures}
}

// Login waits for a slot, then checks like the shipped service but unlocked around Verify.
func (g *Guard) Login(email, password string) error {
	g.slots <- struct{}{}
	defer func() { <-g.slots }()
	g.mu.Lock()
	if g.failures[email] >= g.maxFailures {
		g.mu.Unlock()
		return accounts.ErrLockedOut
	}
	g.failures[email]++ // counted up front, forgiven on success
	g.mu.Unlock()
	if err := g.users.Verify(email, password); err != nil {
		return err
	}
	g.mu.Lock()
	delete(g.failures, email)
	g.mu.Unlock()
	return nil
}
