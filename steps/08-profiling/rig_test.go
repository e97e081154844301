package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/accounts"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/bubble"
)

// A checkRig drives a Guard whose password checks the test holds open: each
// check reports itself and waits until the test releases it. The test
// decides when each slow check ends, so the checks below time nothing.
type checkRig struct {
	t      testing.TB
	g      *Guard
	max    int
	events chan checkEvent
	abort  chan struct{} // closed at the end: every held check returns
	salts  map[string]int

	mu     sync.Mutex    // guards right: read by the password checks
	right  map[int]int   // account → its login with the right password in flight
	logins []*checkLogin // by id
	held   []*checkLogin // in their password check, oldest first
	checks map[int]int   // account → password checks run
	// wait is the watchdog of every wait for a login, in real time: the
	// rig waits until the logins settle (every goroutine blocked, which it
	// observes), never for a tuned time, so wait is generous and ending it
	// is no verdict on the answer: the test stops as timed out.
	wait   time.Duration
	fatalf func(format string, args ...any) // t.Fatalf, or the model's
}

// checkLogin is one call of Guard.Login, as the rig saw it.
type checkLogin struct {
	id, acct int
	right    bool
	checked  bool          // its password check ran
	release  chan struct{} // non-nil while its check is held
	done     bool
	err      error
	panicked any
}

// checkEvent is a password check starting, or a Login returning.
type checkEvent struct {
	id       int
	checking bool
	release  chan struct{}
	err      error
	panicked any
}

const wrongGuessPrefix = "wrong guess #"

func newCheckRig(t testing.TB, maxFailures int) *checkRig {
	r := &checkRig{t: t, max: maxFailures, events: make(chan checkEvent, 4096), abort: make(chan struct{}),
		salts: map[string]int{}, right: map[int]int{}, checks: map[int]int{}, wait: rigWatchdog, fatalf: t.Fatalf}
	for i := range 8 {
		r.salts[fmt.Sprintf("peakload-salt-%02d", i)] = i // as accounts.Demo salts them
	}
	var armed bool // written before any Login: the directory is built first
	d := accounts.Demo(8, func(password string, salt []byte) []byte {
		if armed {
			r.hold(password, salt)
		}
		sum := sha256.Sum256(append([]byte(password), salt...))
		return sum[:]
	})
	armed = true
	r.g = NewGuard(d, maxFailures)
	t.Cleanup(func() { close(r.abort) })
	return r
}

// hold is one password check: it tells the test, then waits for it.
func (r *checkRig) hold(password string, salt []byte) {
	acct, ok := r.salts[string(salt)]
	if !ok {
		return // an unknown email's dummy check
	}
	id := -1
	if n, ok := strings.CutPrefix(password, wrongGuessPrefix); ok {
		id, _ = strconv.Atoi(n)
	} else {
		r.mu.Lock()
		if v, ok := r.right[acct]; ok {
			id = v
		}
		r.mu.Unlock()
	}
	if id < 0 {
		return
	}
	release := make(chan struct{})
	select {
	case r.events <- checkEvent{id: id, checking: true, release: release}:
	case <-r.abort:
		return
	}
	select {
	case <-release:
	case <-r.abort:
	}
}

// start calls Login in a goroutine of its own and returns at once.
func (r *checkRig) start(acct int, right bool) *checkLogin {
	l := &checkLogin{id: len(r.logins), acct: acct, right: right}
	r.logins = append(r.logins, l)
	password := wrongGuessPrefix + strconv.Itoa(l.id)
	if right {
		password = accounts.DemoPassword(acct)
		r.mu.Lock()
		r.right[acct] = l.id
		r.mu.Unlock()
	}
	go func() {
		e := checkEvent{id: l.id}
		defer func() {
			e.panicked = recover()
			select {
			case r.events <- e:
			case <-r.abort:
			}
		}()
		e.err = r.g.Login(accounts.DemoEmail(acct), password)
	}()
	return l
}

// note records one event.
func (r *checkRig) note(e checkEvent) {
	l := r.logins[e.id]
	if e.checking {
		l.checked, l.release = true, e.release
		r.held = append(r.held, l)
		r.checks[l.acct]++
		return
	}
	l.done, l.err, l.panicked = true, e.err, e.panicked
}

// drain records the events already sent.
func (r *checkRig) drain() {
	for {
		select {
		case e := <-r.events:
			r.note(e)
		default:
			return
		}
	}
}

// rigWatchdog bounds, in real time, a wait for logins that neither settle
// nor change: far past what a loaded machine needs (a right answer once
// failed a 2 s bound at load 6), since only a goroutine that never waits
// (a spinning loop) or never ends its sleep meets it.
const rigWatchdog = 30 * time.Second

// until records events until cond holds, or every goroutine is waiting
// for something (nothing more will happen until the test acts): it
// reports whether cond holds then. Both are observed, not timed, so the
// answer does not depend on the machine's load. Logins still running
// after the watchdog end the test as timed out, saying what each
// goroutine of the step's code was doing.
func (r *checkRig) until(cond func() bool) bool {
	start := time.Now()
	pause := 10 * time.Microsecond
	for {
		r.drain()
		if cond() {
			return true
		}
		select {
		case e := <-r.events:
			r.note(e)
			continue
		case <-time.After(pause): // nothing for a while: is anything still running?
			pause = min(2*pause, time.Millisecond)
		}
		if bubble.Settled("") {
			r.drain()
			return cond()
		}
		if time.Since(start) > r.wait {
			r.timedOut()
		}
	}
}

// timedOut ends the test: its logins neither settled nor changed within
// the watchdog. That is no verdict on the answer (the machine may be
// overloaded), so it says what it saw instead.
func (r *checkRig) timedOut() {
	r.t.Helper()
	r.t.Fatalf("%s\n%s\n%s", messages.T("check.timed_out", r.t.Name(), r.wait), r.holding(), strings.Join(bubble.Goroutines(), "\n"))
}

// settle waits until nothing more happens without the test.
func (r *checkRig) settle() { r.until(func() bool { return false }) }

// release ends a held password check and waits for its Login to return.
func (r *checkRig) release(l *checkLogin) {
	r.held = withoutLogin(r.held, l)
	close(l.release)
	l.release = nil
	if !r.until(func() bool { return l.done }) {
		r.fatalf("%s did not return once its password check ended: it kept waiting for something, while %s",
			l, r.holding())
	}
}

// releaseAll ends every held check at once, then waits for them.
func (r *checkRig) releaseAll() {
	ls := r.held
	r.held = nil
	for _, l := range ls {
		close(l.release)
		l.release = nil
	}
	if !r.until(func() bool { return allAnswered(ls) }) {
		r.fatalf("%d logins whose password checks ended together did not all return: %s; meanwhile %s",
			len(ls), r.report(ls), r.holding())
	}
}

// do is one login on its own: started, its check released, its answer.
func (r *checkRig) do(acct int, right bool) *checkLogin {
	l := r.start(acct, right)
	for r.until(func() bool { return l.done || l.release != nil }) && !l.done {
		r.release(l)
	}
	if !l.done {
		r.fatalf("%s neither answered nor reached its password check: it kept waiting for something, "+
			"with no other login of its account in flight, while %s", l, r.holding())
	}
	return l
}

// heldOf counts the held checks of acct.
func (r *checkRig) heldOf(acct int) int {
	n := 0
	for _, l := range r.held {
		if l.acct == acct {
			n++
		}
	}
	return n
}

func withoutLogin(ls []*checkLogin, l *checkLogin) []*checkLogin {
	for i, x := range ls {
		if x == l {
			return append(ls[:i:i], ls[i+1:]...)
		}
	}
	return ls
}

func (l *checkLogin) String() string {
	pw := "a wrong password"
	if l.right {
		pw = "the right password"
	}
	return fmt.Sprintf("login #%d (%s, %s)", l.id, accounts.DemoEmail(l.acct), pw)
}

// answer names what a login got, in the learner's words.
func (l *checkLogin) answer() string {
	switch {
	case !l.done:
		return "no answer yet"
	case l.panicked != nil:
		return fmt.Sprintf("a panic (%v)", l.panicked)
	case l.err == nil:
		return "success (nil)"
	case errors.Is(l.err, accounts.ErrLockedOut):
		return "ErrLockedOut"
	case errors.Is(l.err, accounts.ErrWrongPassword):
		return "ErrWrongPassword"
	}
	return fmt.Sprintf("%q", l.err)
}

// expect fails the test unless l answered want.
func (r *checkRig) expect(l *checkLogin, want error, why string) {
	r.t.Helper()
	if l.done && l.panicked == nil && errors.Is(l.err, want) {
		return
	}
	r.fatalf("%s answered %s, want %s (%s)", l, l.answer(), answerName(want), why)
}

func answerName(err error) string {
	switch err {
	case nil:
		return "success (nil)"
	case accounts.ErrLockedOut:
		return "ErrLockedOut"
	case accounts.ErrWrongPassword:
		return "ErrWrongPassword"
	}
	return err.Error()
}

// oldest is acct's longest-held password check.
func (r *checkRig) oldest(acct int) *checkLogin {
	for _, l := range r.held {
		if l.acct == acct {
			return l
		}
	}
	return nil
}

// report says where each of ls is, the first few of each kind.
func (r *checkRig) report(ls []*checkLogin) string {
	var parts []string
	seen := map[string]int{}
	for _, l := range ls {
		var where string
		switch {
		case l.done:
			where = "answered " + l.answer()
		case l.release != nil:
			where = "in its password check"
		case l.checked:
			where = "past its password check, not returned"
		default:
			where = "waiting, neither answered nor in its password check"
		}
		if seen[where]++; seen[where] <= 2 {
			parts = append(parts, fmt.Sprintf("%s %s", l, where))
		}
	}
	for where, n := range seen {
		if n > 2 {
			parts = append(parts, fmt.Sprintf("%d more %s", n-2, where))
		}
	}
	return strings.Join(parts, "; ")
}

// holding says what the test holds open now.
func (r *checkRig) holding() string {
	if len(r.held) == 0 {
		return "no password check held by the test"
	}
	per := map[int]int{}
	for _, l := range r.held {
		per[l.acct]++
	}
	var parts []string
	for acct := range 8 {
		if per[acct] > 0 {
			parts = append(parts, fmt.Sprintf("%d of %s", per[acct], accounts.DemoEmail(acct)))
		}
	}
	return fmt.Sprintf("%s held open by the test (%s)", plural(len(r.held), "password check"), strings.Join(parts, ", "))
}

// plural is "1 failure", "2 failures".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// checkedAmong are the logins of ls that ran their password check, but for
// those forgiven (in their check beside the success, which may forgive them).
func checkedAmong(ls []*checkLogin, forgiven map[*checkLogin]bool) []*checkLogin {
	var checked []*checkLogin
	for _, l := range ls {
		if l.checked && !forgiven[l] {
			checked = append(checked, l)
		}
	}
	return checked
}
