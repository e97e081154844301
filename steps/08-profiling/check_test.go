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
	"time"

	"github.com/google/pprof/profile"

	"github.com/peakload/workshop/internal/accounts"
	"github.com/peakload/workshop/internal/crashtest"
	"github.com/peakload/workshop/internal/hotspot"
)

// isolated runs the test in a child process: the checks below leave the
// password check one login at a time, so code without a lock fails them
// with a message; on a loaded machine two map writes can still meet, and
// the runtime's "concurrent map writes" then fails the test, not the check.
func isolated(t *testing.T) bool {
	t.Helper()
	return crashtest.Isolated(t, "The failures map is shared by every login: hold the mutex to read and update it, "+
		"and release it only around the password check.")
}

// fakeKDF stands in for PBKDF2 in the checks: fast while the directory is
// built, then each derivation runs hook (which may block) — no timing on
// real hashes, so the checks hold on any laptop.
type fakeKDF struct {
	armed atomic.Bool
	calls atomic.Int64
	hook  func()
}

func (f *fakeKDF) derive(password string, salt []byte) []byte {
	if f.armed.Load() {
		f.calls.Add(1)
		if f.hook != nil {
			f.hook()
		}
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

// The property of step 8: two logins check their passwords at the same
// time. Each check blocks until the other has started too; if something
// serialises them, the second never starts.
func TestLoginsDoNotWaitForEachOther(t *testing.T) {
	if isolated(t) {
		return
	}
	var inside sync.WaitGroup
	inside.Add(2)
	both := make(chan struct{})
	go func() { inside.Wait(); close(both) }()
	var alone atomic.Bool
	f := &fakeKDF{}
	var order atomic.Int64
	f.hook = func() {
		inside.Done()
		select {
		case <-both:
		case <-time.After(2 * time.Second):
			alone.Store(true) // the other check had not started
		}
		time.Sleep(time.Duration(order.Add(1)) * 5 * time.Millisecond) // leave one after the other
	}
	g := NewGuard(directory(t, f), 5)
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = g.Login(accounts.DemoEmail(i), accounts.DemoPassword(i)) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s logged in with the right password while another account logged in, and got %v: "+
				"logins of different accounts must both be served", accounts.DemoEmail(i), err)
		}
	}
	if alone.Load() {
		t.Fatalf("two logins of different accounts did not check their passwords at the same time (%s): "+
			"something serialises the logins — make step-8 profile shows what", time.Since(start).Round(time.Millisecond))
	}
}

// The lock was there for a reason: 50 guesses at once for one account
// must still cost at most maxFailures password checks, and then the
// account is locked even for the right password. The guesses pile up at
// the password check, then leave it one at a time (so that code without
// a lock fails here, not with a crash).
func TestLockoutHoldsUnderConcurrentGuesses(t *testing.T) {
	if isolated(t) {
		return
	}
	const maxFailures = 5
	gate := make(chan struct{})
	f := &fakeKDF{hook: func() { <-gate }}
	g := NewGuard(directory(t, f), maxFailures)
	email := accounts.DemoEmail(1)
	var wg sync.WaitGroup
	var locked, wrong atomic.Int64
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch err := g.Login(email, "a guess"); {
			case errors.Is(err, accounts.ErrLockedOut):
				locked.Add(1)
			case errors.Is(err, accounts.ErrWrongPassword):
				wrong.Add(1)
			default:
				t.Errorf("a wrong password answered %v", err)
			}
		}()
		time.Sleep(500 * time.Microsecond) // all at once for the lockout: each waits at the check
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for calls := int64(-1); calls != f.calls.Load(); { // until no more guesses reach the check
		calls = f.calls.Load()
		time.Sleep(100 * time.Millisecond)
	}
	for open := true; open; {
		select {
		case gate <- struct{}{}: // one check finishes
			time.Sleep(time.Millisecond)
		case <-done:
			open = false
		}
	}
	if n := f.calls.Load(); n > maxFailures || wrong.Load() > maxFailures {
		t.Fatalf("50 concurrent guesses ran %d password checks (%d answered 'wrong password'); the lockout allows %d. "+
			"A guess must count against the account from the moment it passes the lockout check, not when it fails",
			n, wrong.Load(), maxFailures)
	}
	close(gate)
	if err := g.Login(email, accounts.DemoPassword(1)); !errors.Is(err, accounts.ErrLockedOut) {
		t.Fatalf("after %d failures the right password answered %v, want ErrLockedOut", maxFailures, err)
	}
}

// A success clears the account's failures, and an unknown email looks
// like a wrong password (no account enumeration).
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
	if err := g.Login("nobody@peakload.test", password); !errors.Is(err, accounts.ErrWrongPassword) {
		t.Fatalf("an unknown email answered %v, want the same error as a wrong password", err)
	}
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
	const shipped = "github.com/peakload/workshop/internal/accounts.(*Guard).Login"
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
