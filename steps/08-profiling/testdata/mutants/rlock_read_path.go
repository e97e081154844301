// rlock_read_path: a sync.RWMutex read-locked around the check and Verify, write-locked to record: readers run in parallel, so every guess passes the check
// vi: một sync.RWMutex khoá đọc quanh bước kiểm tra và Verify, khoá ghi khi ghi nhận: các lượt đọc chạy song song, nên lần đoán nào cũng qua bước kiểm tra

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is a password check behind a lockout.
type Guard struct {
	mu          sync.RWMutex
	users       *accounts.Directory
	failures    map[string]int
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, maxFailures: maxFailures}
}

// Login checks under a read lock, records under the write lock.
func (g *Guard) Login(email, password string) error {
	g.mu.RLock()
	if g.failures[email] >= g.maxFailures {
		g.mu.RUnlock()
		return accounts.ErrLockedOut
	}
	err := g.users.Verify(email, password)
	g.mu.RUnlock()
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil {
		g.failures[email]++
		return err
	}
	delete(g.failures, email)
	return nil
}
