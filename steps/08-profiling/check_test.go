package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/peakload/workshop/internal/given/accounts"
	"github.com/peakload/workshop/internal/harness/crashtest"
	"github.com/peakload/workshop/internal/harness/hotspot"
)

// isolated runs the test in a child process: a wrong answer's data race
// ("concurrent map writes") then fails the test with a message instead of
// killing the whole check.
func isolated(t *testing.T) bool {
	t.Helper()
	return crashtest.Isolated(t, "A map every login reads or writes (the failures, a lock or a state per account) is shared by all of them: "+
		"read and update it under a lock, released only around the password check.")
}

// fakeKDF stands in for PBKDF2 in the HTTP and sequential checks: fast, and
// counted.
type fakeKDF struct {
	armed atomic.Bool
	calls atomic.Int64
}

func (f *fakeKDF) derive(password string, salt []byte) []byte {
	if f.armed.Load() {
		f.calls.Add(1)
	}
	sum := sha256.Sum256(append([]byte(password), salt...))
	return sum[:]
}

func directory(t *testing.T, f *fakeKDF) *accounts.Directory {
	t.Helper()
	d := accounts.Demo(4, f.derive)
	f.armed.Store(true)
	return d
}

// The point of step 8: logins of different accounts check their passwords
// at the same time. The test holds each password check open until all four
// have started; serialised, the second never starts.
func TestDifferentAccountsCheckTheirPasswordsAtTheSameTime(t *testing.T) {
	if isolated(t) {
		return
	}
	const n = 4
	r := newCheckRig(t, 5)
	var ls []*checkLogin
	for i := range n {
		ls = append(ls, r.start(i, true))
	}
	if !r.until(func() bool { return len(r.held) == n }) {
		r.settle()
		t.Fatalf("%d logins of %d different accounts, each with its right password, were started together; "+
			"%d reached the password check while the test held it open: %s. "+
			"Logins of different accounts must check their passwords at the same time — make step-8 profile shows what serialises them",
			n, n, len(r.held), r.report(ls))
	}
	for _, l := range ls {
		r.release(l)
		r.expect(l, nil, "the right password, no failure recorded")
	}
}

// One account under attack — its guesses held in the password check, more
// piled up behind them, then locked — neither blocks nor locks out any
// other account, and no account's success or failures touch another's.
func TestOneAccountNeverBlocksOrLocksOutAnother(t *testing.T) {
	if isolated(t) {
		return
	}
	const limit = 3
	r := newCheckRig(t, limit)
	var attack []*checkLogin
	for range 2 * limit {
		attack = append(attack, r.start(0, false))
	}
	r.settle()
	during := fmt.Sprintf("while %s had %d wrong guesses in flight, %d of them held in their password check by the test",
		accounts.DemoEmail(0), len(attack), r.heldOf(0))
	r.expect(r.do(1, true), nil, during)
	r.expect(r.do(2, false), accounts.ErrWrongPassword, "its 1st failure, "+during)
	r.expect(r.do(2, false), accounts.ErrWrongPassword, "its 2nd failure, "+during)
	r.expect(r.do(3, true), nil, during)

	for r.heldOf(0) > 0 || !allAnswered(attack) {
		if r.heldOf(0) == 0 {
			t.Fatalf("%s's wrong guesses: %s", accounts.DemoEmail(0), r.report(attack))
		}
		r.release(r.oldest(0))
		r.settle()
	}
	if wrong, locked, other := tallyAnswers(attack); wrong != limit || locked != len(attack)-limit {
		t.Fatalf("%d concurrent wrong guesses for %s, while other accounts logged in: %d answered ErrWrongPassword, %d ErrLockedOut, "+
			"%d something else%s; %s ran. A fresh account allows exactly %d wrong guesses, every later one ErrLockedOut",
			len(attack), accounts.DemoEmail(0), wrong, locked, len(other), firstOther(other), plural(r.checks[0], "password check"), limit)
	}
	locked := fmt.Sprintf("%s was locked by %d wrong guesses", accounts.DemoEmail(0), len(attack))
	r.expect(r.do(0, true), accounts.ErrLockedOut, locked)
	r.expect(r.do(2, true), nil, "2 failures of its own, below the lockout of 3, "+locked)
	r.expect(r.do(0, true), accounts.ErrLockedOut, locked+", then "+accounts.DemoEmail(2)+" logged in: "+
		"one account's success must not clear another's failures")
	for i := range limit {
		r.expect(r.do(1, false), accounts.ErrWrongPassword, fmt.Sprintf("%s's own failure %d of %d, %s", accounts.DemoEmail(1), i+1, limit, locked))
	}
	r.expect(r.do(1, false), accounts.ErrLockedOut, fmt.Sprintf("%d wrong guesses of its own", limit))
	r.expect(r.do(3, true), nil, accounts.DemoEmail(0)+" and "+accounts.DemoEmail(1)+" locked, not it")
}

// The lock was there for a reason: 50 wrong guesses at once for one
// account still run at most maxFailures password checks; exactly that
// many answer "wrong password", the rest "locked", and then the account is
// locked even for the right password. The test holds the checks open, so
// the guesses pile up at the lockout as an attacker's burst would.
func TestLockoutHoldsUnderConcurrentGuesses(t *testing.T) {
	if isolated(t) {
		return
	}
	const limit, guesses = 5, 50
	r := newCheckRig(t, limit)
	var ls []*checkLogin
	for range guesses {
		ls = append(ls, r.start(1, false))
	}
	r.settle()
	if len(r.held) > limit {
		t.Fatalf("%d concurrent wrong guesses for %s: %d were in their password check at once; the lockout allows %d guesses in all. "+
			"A guess must count against the account from the moment it passes the lockout check, not when it fails",
			guesses, accounts.DemoEmail(1), len(r.held), limit)
	}
	for !allAnswered(ls) {
		if len(r.held) == 0 {
			t.Fatalf("%d concurrent wrong guesses for %s, none in its password check: %s", guesses, accounts.DemoEmail(1), r.report(ls))
		}
		r.release(r.held[0])
		r.settle()
	}
	wrong, locked, other := tallyAnswers(ls)
	if r.checks[1] > limit || wrong != limit || locked != guesses-limit {
		t.Fatalf("%d concurrent wrong guesses for %s: %d answered ErrWrongPassword, %d ErrLockedOut, %d something else%s; "+
			"%d password checks ran. A fresh account allows exactly %d wrong guesses (each answered ErrWrongPassword), "+
			"every later one ErrLockedOut without a password check",
			guesses, accounts.DemoEmail(1), wrong, locked, len(other), firstOther(other), r.checks[1], limit)
	}
	r.expect(r.do(1, true), accounts.ErrLockedOut, fmt.Sprintf("after %d concurrent wrong guesses, %d of them answered ErrWrongPassword", guesses, wrong))
}

// Failures that end together, or in any order, are all counted: after 4
// concurrent failures out of 5 allowed, exactly one more wrong guess is
// answered "wrong password", then the account is locked.
func TestConcurrentFailuresAreAllCounted(t *testing.T) {
	if isolated(t) {
		return
	}
	const limit, burst = 5, 4
	for acct, order := range []string{"all at once", "newest first", "oldest first"} {
		t.Run(order, func(t *testing.T) {
			r := newCheckRig(t, limit)
			var ls []*checkLogin
			for range burst {
				ls = append(ls, r.start(acct, false))
			}
			r.settle()
			for !allAnswered(ls) {
				switch {
				case len(r.held) == 0:
					t.Fatalf("%d concurrent wrong guesses for %s, none in its password check: %s", burst, accounts.DemoEmail(acct), r.report(ls))
				case order == "all at once":
					r.releaseAll()
				case order == "newest first":
					r.release(r.held[len(r.held)-1])
				default:
					r.release(r.held[0])
				}
				r.settle()
			}
			for _, l := range ls {
				r.expect(l, accounts.ErrWrongPassword, fmt.Sprintf("%d concurrent wrong guesses, %d allowed", burst, limit))
			}
			after := fmt.Sprintf("after %d concurrent failures (their checks ended %s)", burst, order)
			r.expect(r.do(acct, false), accounts.ErrWrongPassword, after+": the 5th wrong guess is still allowed")
			r.expect(r.do(acct, false), accounts.ErrLockedOut, after+" and 1 more: 5 failures in all, so this 6th guess must be locked out — "+
				"a failure that was not counted gives the attacker an extra guess")
		})
	}
}

// The lockout is exact and per account, one login at a time: after
// maxFailures-1 failures the right password succeeds; the maxFailures-th
// wrong guess still answers "wrong password"; every login after it is
// locked out, without a password check; other accounts keep their own
// count.
func TestLockoutIsExactAndPerAccount(t *testing.T) {
	for _, limit := range []int{1, 3} {
		t.Run(fmt.Sprintf("maxFailures=%d", limit), func(t *testing.T) {
			r := newCheckRig(t, limit)
			for i := range limit - 1 {
				r.expect(r.do(0, false), accounts.ErrWrongPassword, fmt.Sprintf("failure %d of %d allowed", i+1, limit))
				r.expect(r.do(1, false), accounts.ErrWrongPassword, fmt.Sprintf("failure %d of %d allowed", i+1, limit))
			}
			r.expect(r.do(0, true), nil, fmt.Sprintf("%d failures, %d allowed", limit-1, limit))
			for i := range limit {
				r.expect(r.do(0, false), accounts.ErrWrongPassword, fmt.Sprintf("failure %d of %d allowed since its last success", i+1, limit))
			}
			r.expect(r.do(1, true), nil, fmt.Sprintf("%d failures of its own, %d allowed; %s is locked, not it",
				limit-1, limit, accounts.DemoEmail(0)))
			checks := r.checks[0]
			r.expect(r.do(0, false), accounts.ErrLockedOut, fmt.Sprintf("%d failures, %d allowed", limit, limit))
			r.expect(r.do(0, true), accounts.ErrLockedOut, fmt.Sprintf("%d failures, %d allowed: the right password is locked out too", limit, limit))
			if n := r.checks[0] - checks; n > 0 {
				t.Fatalf("2 logins of the locked account %s ran %d password checks: a locked account's login must be refused before "+
					"the check (a check is a free guess for the attacker, and milliseconds of CPU)", accounts.DemoEmail(0), n)
			}
			r.expect(r.do(2, true), nil, accounts.DemoEmail(0)+" is locked, not it")
		})
	}
}

// A success clears the account's failures, however often.
func TestSuccessClearsFailures(t *testing.T) {
	g := NewGuard(directory(t, &fakeKDF{}), 3)
	email, password := accounts.DemoEmail(2), accounts.DemoPassword(2)
	for round := range 3 {
		for range 2 {
			if err := g.Login(email, "nope"); !errors.Is(err, accounts.ErrWrongPassword) {
				t.Fatalf("round %d: wrong password answered %v", round, err)
			}
		}
		if err := g.Login(email, password); err != nil {
			t.Fatalf("round %d: right password after 2 failures answered %v", round, err)
		}
	}
}

// A success clears the account's failures. The wrong guesses still in
// their password check when it succeeds were made before it: the lesson
// lets a success forgive them (counting up front and a channel of slots
// do; the reference counts them when they fail). What it promises is per
// account: after the success, the guesses that start run at most
// maxFailures password checks, however the ones from before it end. The
// test holds two old guesses in their check, lets the right password
// succeed beside them, then ends the old ones one at a time with a burst
// of new guesses after each. (Answers that run an account's logins one at
// a time never have guesses in flight beside a success: nothing to do.)
func TestASuccessBesideGuessesInFlightLeavesMaxFailuresAfterIt(t *testing.T) {
	if isolated(t) {
		return
	}
	const limit, burst = 3, 6
	successBesideWaitingGuesses(t, limit, burst) // guesses waiting for the account, not in their check
	r := newCheckRig(t, limit)
	old := []*checkLogin{r.start(0, false), r.start(0, false)}
	if !r.until(func() bool { return r.heldOf(0) == len(old) }) {
		return // the account's logins run one at a time
	}
	right := r.start(0, true)
	if !r.until(func() bool { return right.release != nil }) {
		return // it waits for the old ones, or is refused beside them (not checked)
	}
	r.release(right)
	r.expect(right, nil, fmt.Sprintf("the right password, beside %d wrong guesses in their check (maxFailures %d)", len(old), limit))
	var after []*checkLogin // the guesses made after the success
	guess := func() {
		for range burst {
			after = append(after, r.start(0, false))
		}
		r.settle()
	}
	guess()
	for _, l := range old {
		r.release(l)
		r.settle()
		guess()
	}
	for r.settle(); len(r.held) > 0; r.settle() { // end the checks as they come, until nothing more happens
		r.releaseAll()
	}
	checked := checkedAmong(after, nil)
	if len(checked) > limit {
		t.Fatalf("maxFailures %d: the right password for %s succeeded beside %d wrong guesses in their password check; then %d wrong guesses "+
			"came in bursts of %d (one burst at once, one after each old guess ended), and %d of them ran their password check: "+
			"at most %d may after a success. A success may forgive the guesses in flight, but what each gives back when it ends "+
			"must be its own: not a reservation a guess made after the success holds (%s)",
			limit, accounts.DemoEmail(0), len(old), len(after), burst, len(checked), limit, r.report(checked))
	}
}

// An unknown email answers as a wrong password does (no account
// enumeration), and its guesses do not lock any real account.
func TestAnUnknownEmailAnswersLikeAWrongPassword(t *testing.T) {
	g := NewGuard(directory(t, &fakeKDF{}), 2)
	for i, email := range []string{"nobody@peakload.test", "nobody@example.com"} {
		if err := g.Login(email, "x"); !errors.Is(err, accounts.ErrWrongPassword) {
			t.Fatalf("guess %d, for the unknown email %s, answered %v, want the same error as a wrong password (ErrWrongPassword)", i+1, email, err)
		}
	}
	if err := g.Login(accounts.DemoEmail(0), accounts.DemoPassword(0)); err != nil {
		t.Fatalf("after 2 guesses for an unknown email, %s with its right password answered %v", accounts.DemoEmail(0), err)
	}
}

func anyDone(ls []*checkLogin) bool {
	return slices.ContainsFunc(ls, func(l *checkLogin) bool { return l.done })
}

func allAnswered(ls []*checkLogin) bool {
	return !slices.ContainsFunc(ls, func(l *checkLogin) bool { return !l.done })
}

// tally counts the answers of ls.
func tallyAnswers(ls []*checkLogin) (wrong, locked int, other []*checkLogin) {
	for _, l := range ls {
		switch {
		case l.panicked == nil && errors.Is(l.err, accounts.ErrWrongPassword):
			wrong++
		case l.panicked == nil && errors.Is(l.err, accounts.ErrLockedOut):
			locked++
		default:
			other = append(other, l)
		}
	}
	return wrong, locked, other
}

func firstOther(ls []*checkLogin) string {
	if len(ls) == 0 {
		return ""
	}
	return " (" + ls[0].String() + ": " + ls[0].answer() + ")"
}

// Bad input gets a 4xx with a JSON error naming the problem, on both routes.
func TestLoginHTTP(t *testing.T) {
	srv := newServer(accounts.Demo(2, (&fakeKDF{}).derive), 2)
	good, _ := json.Marshal(accounts.Credentials{Email: accounts.DemoEmail(0), Password: accounts.DemoPassword(0)})
	for _, route := range []string{"/v1/login", "/v2/login"} {
		for i, c := range []struct {
			body string
			code int
			want string
		}{
			{string(good), 200, "token"},
			{`{"email":"user00@peakload.test","password":"wrong"}`, 401, "wrong email or password"},
			{`{"email":"user00@peakload.test","password":"wrong"}`, 401, "wrong email or password"},
			{`{"email":"user00@peakload.test","password":"wrong"}`, 429, "locked"},
			{`{"email":"user01@peakload.test"`, 400, "invalid login body"},
			{`{"email":"user01@peakload.test","password":"x","admin":true}`, 400, "unknown field"},
			{`{"email":"user01@peakload.test"}`, 400, "required"},
			{`{"email":"user01","password":"x"}`, 400, "not an email"},
			{`{"email":"user01@peakload.test","password":"` + strings.Repeat("x", 70_000) + `"}`, 413, "larger than"},
		} {
			t.Run(fmt.Sprintf("%s %d %d", route, i+1, c.code), func(t *testing.T) { // in order: the lockout builds up
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, route, strings.NewReader(c.body))
				req.Header.Set("Content-Type", "application/json")
				srv.ServeHTTP(rec, req)
				var body map[string]any
				if rec.Code != c.code || json.Unmarshal(rec.Body.Bytes(), &body) != nil || !strings.Contains(rec.Body.String(), c.want) {
					t.Errorf("%s %.60s: %d %s, want %d with %q", route, c.body, rec.Code, rec.Body.Bytes(), c.code, c.want)
				}
			})
		}
	}
}

// raceDetector says whether this test binary was built with -race.
func raceDetector() bool {
	info, ok := debug.ReadBuildInfo()
	return ok && slices.Contains(info.Settings, debug.BuildSetting{Key: "-race", Value: "true"})
}

// The profiler names the culprit: under concurrent logins, the shipped
// service's lock-contention profile charges the waiting to its Login, and
// its CPU profile to the password check. (This checks the lesson's
// tooling on the shipped code, so it holds before and after your fix.)
func TestProfileNamesTheCulprit(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: logins cannot wait for each other's CPU")
	}
	if raceDetector() {
		t.Skip("built with -race: the profiles would name the race detector's own work (runtime._System, deferwrap frames), not the lock — run this check without -race")
	}
	const shipped = "github.com/peakload/workshop/internal/given/accounts.(*Guard).Login"
	g := accounts.NewGuard(accounts.Demo(8, accounts.PBKDF2(20_000)), 5)
	prev := runtime.SetMutexProfileFraction(1)
	defer runtime.SetMutexProfileFraction(prev)
	before := snapshot(t, "mutex")
	var cpu bytes.Buffer
	if err := pprof.StartCPUProfile(&cpu); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 15 {
				if err := g.Login(accounts.DemoEmail(i), accounts.DemoPassword(i)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	pprof.StopCPUProfile()
	contention, err := hotspot.Diff(before, snapshot(t, "mutex"))
	if err != nil {
		t.Fatal(err)
	}
	if r := hotspot.Read(contention, 1); r.Top.Func != shipped || r.Share() < 0.9 {
		t.Errorf("lock contention: top of ours is %s (%.0f%%), want %s", r.Top.Func, 100*r.Share(), shipped)
	}
	p, err := profile.Parse(&cpu)
	if err != nil {
		t.Fatal(err)
	}
	if r := hotspot.Read(p, 1); !strings.Contains(r.Top.Stack(9), "crypto/pbkdf2.Key ← ") || !strings.Contains(r.Top.Stack(9), "(*Guard).Login") || r.Share() < 0.5 {
		t.Errorf("CPU: top of ours is %s (%.0f%%), want PBKDF2 called from Guard.Login", r.Top.Stack(9), 100*r.Share())
	}
}

func snapshot(t *testing.T, name string) *profile.Profile {
	t.Helper()
	var b bytes.Buffer
	if err := pprof.Lookup(name).WriteTo(&b, 0); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// BenchmarkLogin is Guard.Login from every CPU at once, each goroutine on
// its own account, with a real (cheap) PBKDF2: ns/op falls with -cpu 1,2,4
// only if logins run in parallel. go test -bench Login -cpu 1,2,4
func BenchmarkLogin(b *testing.B) {
	const users = 64
	g := NewGuard(accounts.Demo(users, accounts.PBKDF2(1_000)), 5)
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		i := int(next.Add(1)-1) % users
		email, password := accounts.DemoEmail(i), accounts.DemoPassword(i)
		for pb.Next() {
			if err := g.Login(email, password); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
