// lazy_lock_map: a mutex per account, created on first use in a map read and written without a lock: two first logins at once write the map together ("concurrent map writes")
// vi: mỗi tài khoản một mutex, tạo lúc dùng lần đầu, trong một map đọc và ghi không có lock: hai lượt login đầu tiên tới cùng lúc là cùng ghi vào map ("concurrent map writes")

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is the login service.
type Guard struct {
	locks       map[string]*sync.Mutex
	mu          sync.Mutex
	users       *accounts.Directory
	failures    map[string]int
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, locks: map[string]*sync.Mutex{}, failures: map[string]int{}, maxFailures: maxFailures}
}

func (g *Guard) Login(email, password string) error {
	l, ok := g.locks[email]
	if !ok {
		l = &sync.Mutex{}
		g.locks[email] = l
	}
	l.Lock()
	defer l.Unlock()
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
