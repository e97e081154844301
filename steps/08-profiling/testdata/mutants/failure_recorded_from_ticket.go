// failure_recorded_from_ticket: each guess takes a ticket (failures + in flight) and a failure sets the count to ticket+1: guesses that end out of order lose failures
// vi: mỗi lần đoán lấy một vé (số lần fail + số đang chạy) và một lần fail đặt số đếm thành vé+1: các lần đoán kết thúc lệch thứ tự làm mất bớt lần fail

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
	inFlight    map[string]int // checks running now: each may become a failure
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, inFlight: map[string]int{}, maxFailures: maxFailures}
}

// Login reserves an attempt by ticket, checks unlocked, records the outcome.
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	if g.failures[email]+g.inFlight[email] >= g.maxFailures {
		g.mu.Unlock()
		return accounts.ErrLockedOut
	}
	ticket := g.failures[email] + g.inFlight[email] // this guess's place in the count
	g.inFlight[email]++
	g.mu.Unlock()

	err := g.users.Verify(email, password)

	g.mu.Lock()
	defer g.mu.Unlock()
	if g.inFlight[email]--; g.inFlight[email] == 0 {
		delete(g.inFlight, email)
	}
	if err != nil {
		g.failures[email] = ticket + 1
		return err
	}
	delete(g.failures, email)
	return nil
}
