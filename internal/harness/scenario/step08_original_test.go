package scenario

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/peakload/workshop/internal/given/accounts"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// c-crypto/server.js, step 8 on Node, in both of the guide's modes: the
// Go server's login (routes, body, demo users, answers) and its lockout,
// which holds under concurrent guesses also when the hash is async.
func TestOriginalNodeLogin(t *testing.T) {
	p := params.Load().Login
	body := func(i int, password string) string {
		b, _ := json.Marshal(accounts.Credentials{Email: accounts.DemoEmail(i), Password: password})
		return string(b)
	}
	for _, mode := range []string{"sync", "async"} {
		t.Run(mode, func(t *testing.T) {
			url, _ := runOriginal(t, *nodeLogin(mode))
			for _, route := range []string{"/v1/login", "/v2/login"} {
				got := expect(t, "POST", url+route, body(1, accounts.DemoPassword(1)), 200)
				var ok struct {
					Token     string `json:"token"`
					ExpiresIn int    `json:"expires_in"`
				}
				if err := json.Unmarshal([]byte(got), &ok); err != nil || ok.Token == "" || ok.ExpiresIn != 3600 {
					t.Fatalf("%s: 200 %q, want {\"token\":…,\"expires_in\":3600} as the Go server (%v)", route, got, err)
				}
			}
			expect(t, "POST", url+"/v1/login", body(2, accounts.DemoPassword(3)), 401)
			expect(t, "POST", url+"/v1/login", `{"email":"nobody@peakload.test","password":"x"}`, 401)
			expect(t, "POST", url+"/v1/login", `{"email":`, 400) // Express's JSON parser
			expect(t, "POST", url+"/v1/login", `{"email":"x"}`, 400)
			expect(t, "POST", url+"/v1/login", `{"email":"`+strings.Repeat("x", 8<<10)+`","password":"x"}`, 413)

			// Twice the limit of wrong guesses at once on user 4: at most
			// max_failures get a hash, the rest are refused, and then the
			// right password is refused too.
			codes := map[int]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for range 2 * p.MaxFailures {
				wg.Go(func() {
					code, _ := call(t, "POST", url+"/v2/login", body(4, "wrong"))
					mu.Lock()
					codes[code]++
					mu.Unlock()
				})
			}
			wg.Wait()
			if codes[401] > p.MaxFailures || codes[401]+codes[429] != 2*p.MaxFailures {
				t.Fatalf("%d concurrent wrong guesses answered %v: want at most %d 401s, the rest 429", 2*p.MaxFailures, codes, p.MaxFailures)
			}
			if code, got := call(t, "POST", url+"/v2/login", body(4, accounts.DemoPassword(4))); code != 429 {
				t.Fatalf("the right password after %d wrong ones: %d %s, want 429 (locked)", p.MaxFailures, code, got)
			}
		})
	}
}

// C1-node follows the figures, with the pool's CPUs as its bound, and is
// not judged when the Node rows did not run.
func TestNodeSpeedupClaim(t *testing.T) {
	res := func(cpus int, before, after float64) *result.Result {
		return &result.Result{Machine: result.Machine{ServerGOMAXPROCS: cpus}, Runs: []result.Run{
			{Variant: course.On(course.NodeJS, course.Before), RPS: before},
			{Variant: course.On(course.NodeJS, course.After), RPS: after},
		}}
	}
	for _, tc := range []struct {
		name string
		r    *result.Result
		want string
	}{
		{"2 CPUs, ×1.9", res(2, 10, 19), "reproduced"},
		{"2 CPUs, ×1.2", res(2, 10, 12), "not reproduced"},
		{"8 CPUs, ×3.5: the pool's 4 threads bound it", res(8, 5, 17.5), "reproduced"},
		{"1 CPU: nothing to spread on", res(1, 10, 10), "not reproduced"},
		{"rows skipped", &result.Result{}, "not judged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := nodeSpeedupClaim(tc.r)
			got := "not judged"
			if !c.Withheld() {
				got = map[bool]string{true: "reproduced", false: "not reproduced"}[c.Reproduced != nil && *c.Reproduced]
			}
			if got != tc.want {
				t.Errorf("%s (%s), want %s", got, c.Measured, tc.want)
			}
		})
	}
}
