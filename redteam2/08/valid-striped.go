// valid: 64 lock stripes by FNV hash of the email, each holding its accounts' failures and guesses in flight; the password checked with no lock held

//go:build !solution

package main

import (
	"hash/fnv"
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

type stripe struct {
	mu       sync.Mutex
	failures map[string]int
	inFlight map[string]int
}

// Guard is your copy of the shipped login service.
type Guard struct {
	users       *accounts.Directory
	stripes     [64]stripe
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	g := &Guard{users: users, maxFailures: maxFailures}
	for i := range g.stripes {
		g.stripes[i].failures = map[string]int{}
		g.stripes[i].inFlight = map[string]int{}
	}
	return g
}

func (g *Guard) stripe(email string) *stripe {
	h := fnv.New32a()
	h.Write([]byte(email))
	return &g.stripes[h.Sum32()%uint32(len(g.stripes))]
}

func (g *Guard) Login(email, password string) error {
	s := g.stripe(email)
	s.mu.Lock()
	if s.failures[email]+s.inFlight[email] >= g.maxFailures {
		s.mu.Unlock()
		return accounts.ErrLockedOut
	}
	s.inFlight[email]++
	s.mu.Unlock()

	err := g.users.Verify(email, password)

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inFlight[email]--; s.inFlight[email] == 0 {
		delete(s.inFlight, email)
	}
	if err != nil {
		s.failures[email]++
		return err
	}
	delete(s.failures, email)
	return nil
}
