package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/peakload/workshop/internal/given/accounts"
)

// The rig (rig_test.go) holds each password check open, so it decides the
// order of everything a Login does around its check, but it cannot stop a
// Login between two of its own statements. Three mistakes live exactly
// there: a map every login reads and writes without a lock, a gap between
// giving back a guess's reservation and recording its failure, and one
// between the lockout check and the reservation. Without the race
// detector, the unguarded map shows only when many logins run on every CPU
// at once, repeated until two have met in it; the gaps are made certain by
// the Guard's own mutex, handed to each waiting login in turn (handOver).

// countingKDF stands in for PBKDF2: a fast hash, counted per account (by
// the demo salt's number), so a test knows how many password checks ran.
type countingKDF struct {
	armed  atomic.Bool
	checks []atomic.Int64
}

func (k *countingKDF) derive(password string, salt []byte) []byte {
	if n, ok := strings.CutPrefix(string(salt), "peakload-salt-"); ok && k.armed.Load() {
		if i, err := strconv.Atoi(n); err == nil {
			k.checks[i].Add(1)
		}
	}
	sum := sha256.Sum256(append([]byte(password), salt...))
	return sum[:]
}

// onEveryCPU runs work on at least 4 OS threads at once (more than this
// machine may have CPUs: the OS then also switches threads at any
// instruction) for the test's duration.
func onEveryCPU(t *testing.T) int {
	n := max(4, runtime.NumCPU())
	prev := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	return n
}

// First logins of many accounts at once, from every CPU, while the known
// accounts keep logging in: each gets its own answer, and the service
// stays up. State every login shares — a map of accounts, of locks, of
// counts — must be read and written under a lock: unguarded, Go stops the
// whole process ("concurrent map writes", "concurrent map read and map
// write"), which this test reports as a failure (internal/harness/crashtest).
func TestFirstLoginsOfManyAccountsAtOnce(t *testing.T) {
	if isolated(t) {
		return
	}
	const n, known, rounds = 1002, 2, 12
	d := accounts.Demo(n, (&countingKDF{checks: make([]atomic.Int64, n)}).derive)
	writers := onEveryCPU(t)
	for round := range rounds { // a fresh Guard each round: its state grows again
		if wrong := firstLoginsRush(NewGuard(d, 2), n, known, writers); len(wrong) > 0 {
			t.Fatalf("round %d of %d: %d goroutines logged in to %d fresh accounts at once, each account once with a wrong guess, "+
				"then once with its right password (2 failures allowed), while %d known accounts kept logging in: %d got other "+
				"answers, e.g. %s", round+1, rounds, writers, n-known, known, len(wrong), wrong[0])
		}
	}
}

// firstLoginsRush is one round of TestFirstLoginsOfManyAccountsAtOnce: the
// answers that were not the ones owed.
func firstLoginsRush(g *Guard, n, known, writers int) []string {
	for i := range known {
		_ = g.Login(accounts.DemoEmail(i), accounts.DemoPassword(i)) // known to the Guard before the rush
	}
	var mu sync.Mutex
	var wrong []string
	note := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		wrong = append(wrong, fmt.Sprintf(format, args...))
	}
	var done atomic.Bool
	var readers, wg sync.WaitGroup
	for i := range known { // the known accounts' logins read the shared state all along
		readers.Go(func() {
			for !done.Load() {
				if err := g.Login(accounts.DemoEmail(i), accounts.DemoPassword(i)); err != nil {
					note("%s (known) answered its right password %v", accounts.DemoEmail(i), err)
					return
				}
			}
		})
	}
	for w := range writers {
		wg.Go(func() {
			for i := known + w; i < n; i += writers { // the writers' accounts interleave: the state grows from all at once
				email := accounts.DemoEmail(i)
				bad, good := g.Login(email, "a wrong guess"), g.Login(email, accounts.DemoPassword(i))
				if !errors.Is(bad, accounts.ErrWrongPassword) || good != nil {
					note("%s: a wrong guess answered %v, then the right password %v", email, bad, good)
				}
			}
		})
	}
	wg.Wait()
	done.Store(true)
	readers.Wait()
	return wrong
}

// guardMutex is the first sync.Mutex field of the Guard, or nil: the lock
// every login of an account goes through, in the answers that have one.
func guardMutex(g *Guard) *sync.Mutex {
	v := reflect.ValueOf(g).Elem()
	if v.Kind() != reflect.Struct {
		return nil
	}
	for i := range v.NumField() {
		if f := v.Field(i); f.Type() == reflect.TypeFor[sync.Mutex]() {
			return (*sync.Mutex)(unsafe.Pointer(f.UnsafeAddr()))
		}
	}
	return nil
}

// Under contention Go's mutex hands itself to its oldest waiter in turn
// (its "starvation mode"), so a login that unlocks and locks again lets
// every waiting login run in between. The test puts the Guard's own mutex
// in that mode with a guess that has just failed and a second guess both
// waiting for it, maxFailures 1: the second guess must be refused, whatever
// order the mutex is handed in. It finds a guess whose reservation is given
// back in one locked step and its failure recorded in the next. (Answers
// without a sync.Mutex field, or that hold it through the password check,
// have no such gap: the test has nothing to do there.)
func TestNoGuessPassesBetweenAFailureAndItsRecord(t *testing.T) {
	if isolated(t) {
		return
	}
	r := newCheckRig(t, 1)
	first := r.start(0, false)
	mu := guardMutex(r.g)
	if !r.until(func() bool { return first.release != nil }) || mu == nil || !mu.TryLock() {
		return // not in its check (other tests say why), or no lock to hand over
	}
	r.held = withoutLogin(r.held, first) // its check ends while the test holds the lock
	close(first.release)
	first.release = nil
	r.until(func() bool { return first.done }) // it returns, or waits for the lock
	second := r.start(0, false)
	r.settle() // it waits for the lock too (or answered at once)
	handOver(r, mu)
	r.until(func() bool { return first.done && (second.done || second.release != nil) })
	if second.release != nil {
		r.release(second)
		t.Fatalf("maxFailures 1: a first wrong guess for %s ended its password check, then a second guess arrived, both waiting for "+
			"the Guard's mutex; when the mutex handed itself to each in turn, the second ran its password check (2 checks; it answered %s, "+
			"the first %s). Between the first guess giving back its reservation and recording its failure, the second saw neither: "+
			"do both in the same locked step", accounts.DemoEmail(0), second.answer(), first.answer())
	}
	if !r.until(func() bool { return first.done && second.done }) {
		t.Fatalf("maxFailures 1, two wrong guesses for %s waiting for the Guard's mutex, then the mutex released: %s",
			accounts.DemoEmail(0), r.report([]*checkLogin{first, second}))
	}
	r.expect(first, accounts.ErrWrongPassword, "the first guess, maxFailures 1")
	r.expect(second, accounts.ErrLockedOut, "a second guess after the first failed, maxFailures 1")
}

// handOver releases the Guard's mutex, which the test holds while logins
// wait for it, in the mode Go's mutex takes under contention: it hands
// itself to each waiter in turn, the oldest first, and a login that locks
// again queues behind every other waiter.
func handOver(r *checkRig, mu *sync.Mutex) {
	// Why it sleeps: the mutex hands itself over in turn only once a waiter
	// has waited over 1 ms (sync.Mutex's starvation threshold).
	time.Sleep(2 * time.Millisecond)
	mu.Unlock() // wakes the oldest waiter…
	mu.Lock()   // …which finds the lock taken again, and switches the mutex to hand-over mode
	r.settle()
	mu.Unlock() // from here the waiters get the lock in turn
}

// Admission is atomic: a burst of wrong guesses that all wait for the
// Guard's mutex, handed to each in turn, gets at most maxFailures password
// checks. Handed over that way, every guess takes the lock once before any
// takes it twice: a lockout check in one locked step and the reservation
// in the next (check-then-act) lets every guess see no reservation at all.
// The rig holds the checks open, so the admitted guesses are all in flight
// at once. (Answers without a sync.Mutex field have no such handing over:
// the random schedules and the bursts above judge them.)
func TestAdmissionIsAtomic(t *testing.T) {
	if isolated(t) {
		return
	}
	const limit, burst = 3, 8
	r := newCheckRig(t, limit)
	mu := guardMutex(r.g)
	if mu == nil || !mu.TryLock() {
		return // no lock to hand over
	}
	guesses := make([]*checkLogin, burst)
	for i := range guesses {
		guesses[i] = r.start(0, false)
	}
	r.settle() // every guess waits for the lock
	handOver(r, mu)
	for r.settle(); len(r.held) > 0; r.settle() { // end the checks as they come, until nothing more happens
		r.releaseAll()
	}
	if !allAnswered(guesses) {
		t.Fatalf("%d wrong guesses for %s waiting for the Guard's mutex, handed to each in turn: not all answered: %s",
			burst, accounts.DemoEmail(0), r.report(guesses))
	}
	if checks := r.checks[0]; checks > limit {
		t.Fatalf("maxFailures %d: %d wrong guesses for %s, all waiting for the Guard's mutex, which handed itself to each in turn: "+
			"%d password checks ran (%s). Every guess passed the lockout check before any reserved its attempt: check the "+
			"count and reserve in the same locked step", limit, burst, accounts.DemoEmail(0), checks, r.report(guesses))
	}
}

// A burst of wrong guesses for one account from every CPU, with password
// checks that take microseconds and that the test does not hold: the
// account still gets exactly maxFailures password checks. A guess's
// reservation must be given back in the same locked step that records its
// failure: between two steps, another guess sees neither and passes. The
// burst is repeated over many accounts, so such a gap is hit.
func TestABurstOnEveryCPUGetsNoExtraCheck(t *testing.T) {
	if isolated(t) {
		return
	}
	const n, limit = 3000, 5
	k := &countingKDF{checks: make([]atomic.Int64, n)}
	g := NewGuard(accounts.Demo(n, k.derive), limit)
	k.armed.Store(true)
	workers := 2 * onEveryCPU(t)
	for acct := range n {
		email := accounts.DemoEmail(acct)
		var failed, locked, other atomic.Int64
		start := make(chan struct{})
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				<-start
				// Guess until the account's failures are all answered:
				// the guesses keep coming while the last ones are recorded.
				for try := 0; failed.Load() < limit && try < 1000; try++ {
					switch err := g.Login(email, "a wrong guess"); {
					case errors.Is(err, accounts.ErrWrongPassword):
						failed.Add(1)
					case errors.Is(err, accounts.ErrLockedOut):
						locked.Add(1)
					default:
						other.Add(1)
					}
				}
			})
		}
		close(start)
		wg.Wait()
		if c := k.checks[acct].Load(); c != limit || failed.Load() != limit || other.Load() > 0 {
			t.Fatalf("burst %d of %d: %d goroutines guessed wrong for %s at once, each until %d guesses had been answered "+
				"ErrWrongPassword: %d password checks ran; %d answers ErrWrongPassword, %d ErrLockedOut, %d something else. "+
				"The lockout allows exactly %d checks: a guess must stay counted, as in flight or as a failure, at every moment",
				acct+1, n, workers, email, limit, c, failed.Load(), locked.Load(), other.Load(), limit)
		}
	}
}
