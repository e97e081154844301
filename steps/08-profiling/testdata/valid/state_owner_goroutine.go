// state_owner_goroutine: one goroutine owns the failure counts and answers admit/record requests over channels (no mutex at all); the checks run in the callers' goroutines, in parallel
// vi: một goroutine sở hữu số lần fail và trả lời các yêu cầu admit/record qua channel (không có mutex nào); các bước kiểm tra chạy trong goroutine của caller, song song

//go:build !solution

package main

import (
	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is a password check behind a lockout.
type Guard struct {
	users   *accounts.Directory
	admit   chan admitReq
	outcome chan outcomeMsg
}

type admitReq struct {
	email string
	ok    chan bool
}

type outcomeMsg struct {
	email   string
	success bool
	done    chan struct{}
}

// NewGuard returns a guard over users, and starts the goroutine that owns its counts.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	g := &Guard{users: users, admit: make(chan admitReq), outcome: make(chan outcomeMsg)}
	go func() {
		failures, inFlight := map[string]int{}, map[string]int{}
		for {
			select {
			case r := <-g.admit:
				ok := failures[r.email]+inFlight[r.email] < maxFailures
				if ok {
					inFlight[r.email]++
				}
				r.ok <- ok
			case o := <-g.outcome:
				inFlight[o.email]--
				if o.success {
					delete(failures, o.email)
				} else {
					failures[o.email]++
				}
				close(o.done)
			}
		}
	}()
	return g
}

// Login asks the owner for an attempt, checks, and reports the outcome.
func (g *Guard) Login(email, password string) error {
	ok := make(chan bool)
	g.admit <- admitReq{email, ok}
	if !<-ok {
		return accounts.ErrLockedOut
	}
	err := g.users.Verify(email, password)
	done := make(chan struct{})
	g.outcome <- outcomeMsg{email, err == nil, done}
	<-done
	return err
}
