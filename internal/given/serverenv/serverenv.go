// Package serverenv is everything a step server is told by its environment,
// read once into one typed value: where the databases are, where to listen,
// the pool, the profile switch, the language, and the few variables one
// step's bench sets for its rows (step 0's shell, step 9's framework and
// pool, step 10's replica switches).
//
// The step server and the workshop CLI are two processes with two
// configurations: the CLI's (internal/harness/config.Config) is what a person
// typed after make; this one is what the CLI, or `make step-N run`, hands
// the server it starts. A server links none of the harness, so its
// configuration lives here, beside the packages it passes the values to.
package serverenv

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/peakload/workshop/internal/given/dbaddr"
	"github.com/peakload/workshop/internal/given/messages"
)

// Config is a step server's environment, parsed. A zero field of a
// step-specific variable means "not set": the step's default.
type Config struct {
	DB   dbaddr.Endpoints // PEAKLOAD_POSTGRES_URL… or the stack's ports (dbaddr.Parse)
	Addr string           // PEAKLOAD_ADDR: where to listen, else dbaddr.DefaultServerAddr
	// PGPool is PEAKLOAD_PG_POOL: the catalogue's connections (0: catalog.DefaultPool).
	PGPool int
	// MutexProfile is PEAKLOAD_MUTEX_PROFILE=1, set by `make step-N profile`.
	MutexProfile bool
	Lang         messages.Lang // PEAKLOAD_LANG, else LANG (messages.Parse)
	Shell        Layer         // PEAKLOAD_SHELL: step 0's layer rows; Full unless set
	Framework    string        // FRAMEWORK: step 9's framework, one of Frameworks ("" is echo)
	Pool         int           // PG_POOL: step 9's pool rows (0: params' pool)
	Replica      string        // PEAKLOAD_REPLICA: step 10's replica name ("" is the host's)
	// Invalidation is false under PEAKLOAD_INVALIDATION=off (step 10's
	// "before" rows: no announcement, no listening); Listen is false under
	// PEAKLOAD_LISTEN=off (a replica that misses every announcement).
	Invalidation, Listen bool
}

// Frameworks are the names FRAMEWORK takes: step 9's frameworks (its
// check holds its table to this list).
var Frameworks = []string{"echo", "fasthttp", "nethttp", "yours"}

// Load is the one reading of the process's environment, parsed on the
// first call and the same value after: every part of a server sees one
// configuration.
var Load = sync.OnceValues(func() (Config, error) { return Parse(os.Getenv) })

// Names are the variables Parse reads (the environment-reads test and
// the docs hold to them).
func Names() []string {
	var names []string
	_, _ = Parse(func(name string) string { names = append(names, name); return "" })
	return names
}

// Parse reads the configuration from env; the error names every bad
// variable and what it accepts, rather than a default in a bad value's
// place, which would measure something other than what was asked.
func Parse(env func(string) string) (Config, error) {
	lang := messages.Asked(env)
	defer messages.Use(lang)() // the errors below, in the language the reader asked for
	_, db, err := dbaddr.Parse(env)
	errs := []error{err}
	add := func(err error) { errs = append(errs, err) }
	c := Config{DB: db, Lang: lang, Replica: env("PEAKLOAD_REPLICA")}
	c.Addr, err = dbaddr.ParseServerAddr(env("PEAKLOAD_ADDR"))
	add(err)
	c.PGPool, err = Count(env, "PEAKLOAD_PG_POOL")
	add(err)
	c.Pool, err = Count(env, "PG_POOL")
	add(err)
	c.MutexProfile, err = Switch(env, "PEAKLOAD_MUTEX_PROFILE", false)
	add(err)
	c.Invalidation, err = Switch(env, "PEAKLOAD_INVALIDATION", true)
	add(err)
	c.Listen, err = Switch(env, "PEAKLOAD_LISTEN", true)
	add(err)
	c.Shell, err = ParseLayer(env("PEAKLOAD_SHELL"))
	add(err)
	c.Framework = cmp.Or(env("FRAMEWORK"), "echo")
	if !slices.Contains(Frameworks, c.Framework) {
		add(errors.New(messages.T("config.bad_choice", "FRAMEWORK", c.Framework, strings.Join(Frameworks, ", "))))
	}
	return c, errors.Join(errs...)
}

// Count is name's positive integer, or 0 when it is unset; anything else
// is an error naming it (the CLI's configuration reads its counts so too).
func Count(env func(string) string, name string) (int, error) {
	v := env(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, errors.New(messages.T("bench.bad_count", name, v))
	}
	return n, nil
}

// Switch is the one reading of a switch variable, the step server's and
// the CLI's (QUICK, ORIGINAL…): on, off, 1, 0, true, false (any case), else
// def when unset; a value that is none of them (maybe) is an error, not a
// guess (QUICK=false was once read as on).
func Switch(env func(string) string, name string, def bool) (bool, error) {
	v := strings.ToLower(env(name))
	switch v {
	case "":
		return def, nil
	case "on":
		return true, nil
	case "off":
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return def, errors.New(messages.T("config.bad_switch", name, env(name)))
	}
	return b, nil
}

// Layer is how much of the server's shell a server gets, cheapest first
// (internal/given/server builds it). Every step serves Full; step 0 serves
// the others too, to measure what each adds. It is here, not in server,
// because PEAKLOAD_SHELL names it and a bad name is a configuration error.
type Layer int

const (
	Bare     Layer = iota // echo and the routes: no timeouts, no middleware
	Timeouts              // + the shell's timeouts
	Guards                // + a recovered panic is a 500, not a dead process; + the body limit
	Full                  // + response counting: the shell every step serves
)

var layerNames = [...]string{Bare: "bare", Timeouts: "timeouts", Guards: "guards", Full: "full"}

func (l Layer) String() string { return layerNames[l] }

// ParseLayer reads a layer's name (PEAKLOAD_SHELL); "" is Full.
func ParseLayer(s string) (Layer, error) {
	if s == "" {
		return Full, nil
	}
	for l, name := range layerNames {
		if s == name {
			return Layer(l), nil
		}
	}
	return Full, errors.New(messages.T("config.bad_choice", "PEAKLOAD_SHELL", s, strings.Join(layerNames[:], ", ")))
}

// Must is Load for a server's main: it sets the language of messages, and
// a bad configuration stops the server with every bad variable named, in
// the reader's language, and exit status 2, as the CLI does. (Load alone
// leaves the language to the process, as a test's.)
func Must() Config {
	c, err := Load()
	messages.Use(c.Lang)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return c
}
