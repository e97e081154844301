// release_then_record: releases the reservation in one locked section and records the failure in the next: between the two, another guess sees neither and passes the lockout check
// vi: trả chỗ đã giữ trong một đoạn có lock và ghi lần fail trong đoạn sau: ở giữa hai đoạn, một lần đoán khác không thấy cả hai và qua được bước kiểm tra lockout

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
	g.inFlight[email]--
	g.mu.Unlock()

	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil {
		g.failures[email]++
		return err
	}
	delete(g.failures, email)
	return nil
}
