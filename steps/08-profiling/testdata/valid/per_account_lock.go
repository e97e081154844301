// per_account_lock: a mutex per account, held around the whole check: the same account's guesses wait for each other (the lockout stays exact), different accounts run in parallel
// vi: mỗi tài khoản một mutex, giữ quanh cả bước kiểm tra: các lần đoán của cùng tài khoản chờ nhau (lockout vẫn chính xác), các tài khoản khác nhau chạy song song

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is a password check behind a lockout.
type Guard struct {
	mu          sync.Mutex // guards accounts
	accounts    map[string]*account
	users       *accounts.Directory
	maxFailures int
}

// account is one email's lockout state, behind its own lock.
type account struct {
	sync.Mutex
	failures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, accounts: map[string]*account{}, maxFailures: maxFailures}
}

// Login checks one account's guesses one at a time, accounts in parallel.
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	a := g.accounts[email]
	if a == nil {
		a = &account{}
		g.accounts[email] = a
	}
	g.mu.Unlock()

	a.Lock()
	defer a.Unlock()
	if a.failures >= g.maxFailures {
		return accounts.ErrLockedOut
	}
	if err := g.users.Verify(email, password); err != nil {
		a.failures++
		return err
	}
	a.failures = 0
	return nil
}
