// no_lock: the mutex deleted: logins run in parallel, but the lockout is a data race and a burst of guesses gets through
// vi: xoá mutex: các lượt login chạy song song, nhưng lockout thành data race và một loạt lần đoán lọt qua

//go:build !solution

package main

import (
	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is a password check behind a lockout.
type Guard struct {
	users       *accounts.Directory
	failures    map[string]int
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, maxFailures: maxFailures}
}

// Login checks the password unless the account is locked.
func (g *Guard) Login(email, password string) error {
	if g.failures[email] >= g.maxFailures {
		return accounts.ErrLockedOut
	}
	if err := g.users.Verify(email, password); err != nil {
		g.failures[email]++
		return err
	}
	delete(g.failures, email)
	return nil
}
