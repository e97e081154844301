// slot_channels: each account holds a buffered channel of maxFailures slots: a guess takes one (a non-blocking send) or is locked out; a failure keeps its slot, a success empties the channel
// vi: mỗi tài khoản giữ một buffered channel có maxFailures slot: một lần đoán lấy một slot (một lần gửi không chặn) hoặc bị khoá; lần fail giữ luôn slot của nó, lần thành công làm rỗng channel

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is a password check behind a lockout.
type Guard struct {
	mu          sync.Mutex // guards slots
	slots       map[string]chan struct{}
	users       *accounts.Directory
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, slots: map[string]chan struct{}{}, maxFailures: maxFailures}
}

// Login takes a slot of the account's channel for the attempt.
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	slots, ok := g.slots[email]
	if !ok {
		slots = make(chan struct{}, g.maxFailures)
		g.slots[email] = slots
	}
	g.mu.Unlock()

	select {
	case slots <- struct{}{}: // an attempt reserved
	default:
		return accounts.ErrLockedOut
	}
	if err := g.users.Verify(email, password); err != nil {
		return err // the slot stays taken: a failure
	}
	for len(slots) > 0 { // a success clears the failures
		select {
		case <-slots:
		default:
		}
	}
	return nil
}
