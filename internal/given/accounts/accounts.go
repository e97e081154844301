// Package accounts is step 8's login service as it shipped: demo users whose
// passwords are stored as PBKDF2-SHA256 keys (never the passwords), a guard
// that locks an account after too many wrong passwords, and signed session
// tokens. Everything here is correct. Under load it still serves about one
// CPU's worth of logins however many CPUs it is given; step 8 is finding out
// why with the profiler, not by reading.
package accounts

import (
	"bytes"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

var (
	// ErrWrongPassword is the answer for a wrong password and for an unknown
	// email alike: which accounts exist is nobody's business.
	ErrWrongPassword = errors.New("wrong email or password")
	// ErrLockedOut refuses an account after too many failed logins.
	ErrLockedOut = errors.New("too many failed logins for this account: it is locked")
)

// User is a stored account: a salt and the key derived from the password.
type User struct {
	Email string
	Salt  []byte
	Key   []byte
}

// KDF derives a key from a password and a salt.
type KDF func(password string, salt []byte) []byte

// PBKDF2 is the key derivation the service ships with: PBKDF2-HMAC-SHA256.
// Slow on purpose — every guess of an attacker costs the same. OWASP asks
// for 600,000 iterations; k6/lib/params.json sets the workshop's.
func PBKDF2(iterations int) KDF {
	return func(password string, salt []byte) []byte {
		key, err := pbkdf2.Key(sha256.New, password, salt, iterations, 32)
		if err != nil {
			panic(fmt.Sprintf("pbkdf2: %v", err)) // only for an invalid key length, fixed here
		}
		return key
	}
}

// Directory holds the accounts and checks passwords.
type Directory struct {
	users  map[string]User
	nobody User // checked for unknown emails, so they cost the same time
	derive KDF
}

// DemoEmail and DemoPassword are the credentials of demo user i: what the
// bench and the k6 script log in with (user i for virtual user i).
func DemoEmail(i int) string    { return fmt.Sprintf("user%02d@peakload.test", i) }
func DemoPassword(i int) string { return "correct horse battery staple " + strconv.Itoa(i) }

// Demo builds n demo users, deriving their keys concurrently (start-up
// costs n derivations).
func Demo(n int, derive KDF) *Directory {
	d := &Directory{users: make(map[string]User, n), derive: derive}
	users := make([]User, n)
	var wg sync.WaitGroup
	for i := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			salt := []byte(fmt.Sprintf("peakload-salt-%02d", i))
			users[i] = User{Email: DemoEmail(i), Salt: salt, Key: derive(DemoPassword(i), salt)}
		}()
	}
	wg.Wait()
	for _, u := range users {
		d.users[u.Email] = u
	}
	d.nobody = User{Salt: []byte("peakload-salt-nobody"), Key: make([]byte, 32)}
	return d
}

// Verify checks a password. An unknown email runs the same derivation
// against a key no password gives, so the response time does not tell an
// attacker which emails have accounts.
func (d *Directory) Verify(email, password string) error {
	u, ok := d.users[email]
	if !ok {
		u = d.nobody
	}
	key := d.derive(password, u.Salt)
	if !ok || !hmac.Equal(key, u.Key) {
		return ErrWrongPassword
	}
	return nil
}

// Guard is the login service: a password check behind a lockout, so an
// attacker gets at most maxFailures guesses per account.
type Guard struct {
	mu          sync.Mutex
	users       *Directory
	failures    map[string]int
	maxFailures int
}

// NewGuard returns a guard over users.
func NewGuard(users *Directory, maxFailures int) *Guard {
	return &Guard{users: users, failures: map[string]int{}, maxFailures: maxFailures}
}

// Login checks the password unless the account is locked; a failure counts
// towards the lockout, a success clears it. The check and the update are
// one critical section, so concurrent guesses cannot slip past the count.
func (g *Guard) Login(email, password string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failures[email] >= g.maxFailures {
		return ErrLockedOut
	}
	if err := g.users.Verify(email, password); err != nil {
		g.failures[email]++
		return err
	}
	delete(g.failures, email)
	return nil
}

// Credentials is the body of POST /login.
type Credentials struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// DecodeCredentials parses a login body strictly: one JSON object with a
// non-empty email and password and nothing else.
func DecodeCredentials(body []byte) (Credentials, error) {
	var c Credentials
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("invalid login body: %w", err)
	}
	if dec.More() {
		return c, errors.New("invalid login body: more than one JSON value")
	}
	switch {
	case c.Email == "" || c.Password == "":
		return c, errors.New(`invalid login body: "email" and "password" are required`)
	case len(c.Email) > 254 || !strings.Contains(c.Email, "@"):
		return c, fmt.Errorf("invalid login body: %q is not an email address", truncate(c.Email, 40))
	case len(c.Password) > 1024:
		return c, errors.New("invalid login body: password longer than 1024 bytes")
	}
	return c, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Tokens signs session tokens: email and expiry, HMAC-SHA256 with a key
// made at start-up.
type Tokens struct{ key []byte }

// NewTokens makes a signing key.
func NewTokens() *Tokens {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // never fails on Linux (crypto/rand panics instead)
	return &Tokens{key: key}
}

// Issue returns a token for email valid for ttl.
func (t *Tokens) Issue(email string, ttl time.Duration) string {
	payload := email + "|" + strconv.FormatInt(time.Now().Add(ttl).Unix(), 10)
	mac := hmac.New(sha256.New, t.key)
	mac.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}
