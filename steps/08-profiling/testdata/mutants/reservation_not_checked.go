// reservation_not_checked: counts the attempts in flight but the lockout check reads failures only: the reservation is made and never consulted
// vi: đếm các lần thử đang chạy nhưng bước kiểm tra lockout chỉ đọc số lần fail: chỗ được giữ nhưng không bao giờ được xem tới

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
	if g.failures[email] >= g.maxFailures {
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
