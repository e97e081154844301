// account_structs_sync_map: each account's count and attempts in flight live in its own struct behind its own mutex, found through a sync.Map: no lock is shared by two accounts, and the check still runs unlocked
// vi: số đếm và số lần thử đang chạy của mỗi tài khoản nằm trong struct riêng sau mutex riêng, tìm qua một sync.Map: không lock nào bị hai tài khoản dùng chung, và bước kiểm tra vẫn chạy không lock

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is a password check behind a lockout.
type Guard struct {
	users       *accounts.Directory
	states      sync.Map // email → *lockState
	maxFailures int
}

// lockState is one account's lockout.
type lockState struct {
	mu                 sync.Mutex
	failures, inFlight int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, maxFailures: maxFailures}
}

// Login reserves an attempt on the account's own lock, checks unlocked, records.
func (g *Guard) Login(email, password string) error {
	v, _ := g.states.LoadOrStore(email, &lockState{})
	s := v.(*lockState)
	s.mu.Lock()
	if s.failures+s.inFlight >= g.maxFailures {
		s.mu.Unlock()
		return accounts.ErrLockedOut
	}
	s.inFlight++
	s.mu.Unlock()

	err := g.users.Verify(email, password)

	s.mu.Lock()
	defer s.mu.Unlock()
	s.inFlight--
	if err != nil {
		s.failures++
		return err
	}
	s.failures = 0
	return nil
}
