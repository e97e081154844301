// success_drops_account_lock: a lock per account, and a success deletes the account's entry, its lock with it: the guesses that waited on the old lock count on the old state while new guesses make a fresh one, and twice maxFailures run their check after the success
// vi: mỗi tài khoản một lock, và một lần thành công xoá entry của tài khoản, xoá luôn cả lock: các lần đoán đang chờ lock cũ đếm trên trạng thái cũ, còn các lần đoán mới tạo trạng thái mới, nên sau lần thành công có tới gấp đôi maxFailures lần đoán được kiểm tra mật khẩu

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is your copy of the shipped login service.
type Guard struct {
	mu          sync.Mutex
	users       *accounts.Directory
	accounts    map[string]*account
	maxFailures int
}

type account struct {
	mu       sync.Mutex // one login of an account at a time; other accounts run meanwhile
	failures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, accounts: map[string]*account{}, maxFailures: maxFailures}
}

func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	a := g.accounts[email]
	if a == nil {
		a = &account{}
		g.accounts[email] = a
	}
	g.mu.Unlock()

	a.mu.Lock()
	defer a.mu.Unlock()
	if a.failures >= g.maxFailures {
		return accounts.ErrLockedOut
	}
	if err := g.users.Verify(email, password); err != nil {
		a.failures++
		return err
	}
	g.mu.Lock()
	delete(g.accounts, email) // a clean slate, and no entry kept for a good account
	g.mu.Unlock()
	return nil
}
