// WRONG: one goroutine owns the counts (no mutex) and runs the password check itself: the check is serial again, one CPU for every account

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is your copy of the shipped login service.
type Guard struct {
	mu          sync.Mutex // unused: the owner goroutine needs no lock
	users       *accounts.Directory
	failures    map[string]int
	maxFailures int
	reqs        chan request
}

type request struct {
	email, password string
	answer          chan error
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	g := &Guard{users: users, failures: map[string]int{}, maxFailures: maxFailures, reqs: make(chan request, 64)}
	go g.own()
	return g
}

func (g *Guard) own() {
	for r := range g.reqs {
		r.answer <- g.decide(r.email, r.password)
	}
}

func (g *Guard) decide(email, password string) error {
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

func (g *Guard) Login(email, password string) error {
	answer := make(chan error, 1)
	g.reqs <- request{email, password, answer}
	return <-answer
}
