// success_wipes_in_flight: a success forgives the guesses still in their password check by zeroing the account's reservations, yet each of them gives one back when it ends: it frees a slot a guess made after the success holds, and one more guess than maxFailures gets through
// vi: một lần thành công tha cho các lần đoán còn đang kiểm tra mật khẩu bằng cách xoá sạch số chỗ tài khoản đang giữ, vậy mà lần đoán nào xong cũng vẫn trả lại một chỗ: nó nhả luôn chỗ của một lần đoán đến sau lần thành công, và số lần đoán lọt qua nhiều hơn maxFailures một lần

//go:build !solution

package main

import (
	"sync"

	"github.com/peakload/workshop/internal/given/accounts"
)

// Guard is your copy of the shipped login service (internal/given/accounts):
// a password check behind a lockout, so an attacker gets at most
// maxFailures guesses per account.
type Guard struct {
	mu          sync.Mutex
	users       *accounts.Directory
	failures    map[string]int
	inFlight    map[string]int
	epoch       map[string]int // successes so far: a guess made before one is forgiven
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *accounts.Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, inFlight: map[string]int{}, epoch: map[string]int{}, maxFailures: maxFailures}
}

// Login checks the password unless the account is locked; a failure counts
// towards the lockout, a success clears it.
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	if g.failures[email]+g.inFlight[email] >= g.maxFailures {
		g.mu.Unlock()
		return accounts.ErrLockedOut
	}
	g.inFlight[email]++
	epoch := g.epoch[email]
	g.mu.Unlock()

	err := g.users.Verify(email, password)

	g.mu.Lock()
	defer g.mu.Unlock()
	if g.inFlight[email] > 0 {
		g.inFlight[email]--
	}
	if err != nil {
		if g.epoch[email] == epoch { // made before a success: forgiven with it
			g.failures[email]++
		}
		return err
	}
	delete(g.failures, email)
	delete(g.inFlight, email) // the guesses in flight are forgiven too
	g.epoch[email]++
	return nil
}
