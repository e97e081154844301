// prune_forgets: drops an account from both maps whenever no guess of it is in flight ("keep the maps small"): its failures go with it, so guesses made one at a time never lock it
// vi: bỏ một tài khoản khỏi cả hai map mỗi khi nó không còn lần đoán nào đang chạy ("cho map nhỏ gọn"): số lần fail của nó đi theo, nên đoán từng lần một thì không bao giờ bị khoá

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

// Login checks the password unless the account is locked.
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
	defer g.mu.Unlock()
	g.inFlight[email]--
	if err != nil {
		g.failures[email]++
	} else {
		delete(g.failures, email)
	}
	if g.inFlight[email] == 0 {
		delete(g.inFlight, email)
		delete(g.failures, email)
	}
	return err
}
