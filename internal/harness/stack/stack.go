// Package stack starts and stops the databases the workshop measures against:
// PostgreSQL, Redis and a MongoDB wire server. Either from local binaries
// ("native", private servers under .workshop/ on workshop ports) or with
// Docker Compose when an engine answers. Both give the same endpoints, so the
// steps never know which one runs.
package stack

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/peakload/workshop/internal/given/dbaddr"
	"github.com/peakload/workshop/internal/given/messages"
)

// Service names, as steps ask for them.
const (
	Postgres = "postgres"
	Redis    = "redis"
	Mongo    = "mongo"
)

// All lists every service in start order.
var All = []string{Postgres, Redis, Mongo}

// Config says where the stack lives and which ports it uses. The ports are
// not the databases' defaults so the learner's own servers never clash.
type Config struct {
	Dir       string // state directory, .workshop/ in the repository
	Kind      string // "auto", "native", "compose" or "given" (Given)
	Host      string // 127.0.0.1 unless the learner asks otherwise
	PGPort    int
	RedisPort int
	MongoPort int
	// MongoBackend is where the native FerretDB stores documents:
	// "postgresql" (a database of its own on the workshop's PostgreSQL) or
	// "sqlite" (files under Dir). Ignored when a real mongod runs.
	MongoBackend string
	// MongoBin is PEAKLOAD_MONGO_BIN: a FerretDB server already built by
	// whoever set it (make test, make step-N check hand theirs to the tests
	// they run), used as it is; "" builds Dir/bin/mongo when needed.
	MongoBin string
	// Named are the services' addresses as the environment names them
	// (PEAKLOAD_POSTGRES_URL…, else the ports): STACK=given's, where Compose
	// gives each service a host of its own, and the worker container's.
	Named Endpoints
	Log   func(format string, args ...any)
}

// Parse is the one reading of the stack's variables: STACK, PEAKLOAD_DIR,
// PEAKLOAD_MONGO_BACKEND, PEAKLOAD_MONGO_BIN, and (through dbaddr.Parse) the host, the ports
// and, for STACK=given, the services' URLs. A bad value is an error naming
// the variable, never a default in its place.
func Parse(env func(string) string) (Config, error) {
	place, named, err := dbaddr.Parse(env)
	errs := []error{err}
	c := Config{
		Dir:          cmp.Or(env("PEAKLOAD_DIR"), ".workshop"),
		Kind:         cmp.Or(env("STACK"), "auto"),
		Host:         place.Host,
		PGPort:       place.PGPort,
		RedisPort:    place.RedisPort,
		MongoPort:    place.MongoPort,
		MongoBackend: cmp.Or(env("PEAKLOAD_MONGO_BACKEND"), DefaultMongoBackend),
		MongoBin:     env("PEAKLOAD_MONGO_BIN"),
		Named:        named,
		Log:          func(f string, a ...any) { fmt.Fprintf(os.Stderr, "stack: "+f+"\n", a...) },
	}
	switch c.Kind {
	case "auto", "native", "compose", Given:
	default:
		errs = append(errs, errors.New(messages.T("stack.bad_kind", c.Kind)))
	}
	switch c.MongoBackend {
	case "postgresql", "sqlite":
	default:
		errs = append(errs, errors.New(messages.T("config.bad_backend", c.MongoBackend)))
	}
	if abs, err := filepath.Abs(c.Dir); err == nil {
		c.Dir = abs
	}
	return c, errors.Join(errs...)
}

// Endpoints are the addresses a step server connects to (package dbaddr,
// which the servers read them from without linking this package).
type Endpoints = dbaddr.Endpoints

// Endpoints returns the URLs of the stack's services.
func (c Config) Endpoints() Endpoints {
	if c.Kind == Given {
		return c.Named
	}
	return dbaddr.For(c.Host, c.PGPort, c.RedisPort, c.MongoPort)
}

// state records what Up started, so Down stops only that.
type state struct {
	Kind    string   `json:"kind"`
	Started []string `json:"started"`
}

func (c Config) statePath() string { return filepath.Join(c.Dir, "stack.json") }

func (c Config) loadState() state {
	var s state
	b, err := os.ReadFile(c.statePath())
	if err == nil {
		_ = json.Unmarshal(b, &s)
	}
	return s
}

func (c Config) saveState(s state) error {
	if len(s.Started) == 0 {
		err := os.Remove(c.statePath())
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	b, _ := json.MarshalIndent(s, "", "  ")
	return os.WriteFile(c.statePath(), b, 0o644)
}

// ResolveKind turns "auto" into a stack (Choice says how and why). A stack
// that is already up keeps its kind.
func (c Config) ResolveKind() string {
	kind, _ := c.Choice()
	return kind
}

// DockerEngine reports whether a Docker engine answers (not just a client).
func DockerEngine() bool {
	if _, err := exec.LookPath("docker"); err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, "docker", "info", "--format", "{{.ServerVersion}}").Run() == nil
}

// Up starts the named services (all when none are named) and waits until
// each answers. Services already running are left alone, so Up is
// idempotent. It returns the services it started itself.
func Up(ctx context.Context, c Config, services ...string) ([]string, error) {
	if len(services) == 0 {
		services = All
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", c.Dir, err)
	}
	kind := c.ResolveKind()
	if kind == "native" && slices.Contains(services, Mongo) && !slices.Contains(services, Postgres) && c.FerretOnPostgres() {
		services = append(slices.Clone(services), Postgres) // FerretDB keeps its documents there
	}
	s := c.loadState()
	s.Kind = kind
	var started []string
	for _, name := range All {
		if !slices.Contains(services, name) {
			continue
		}
		var did bool
		var err error
		switch kind {
		case "native":
			did, err = upNative(ctx, c, name)
		case "compose":
			did, err = upCompose(ctx, c, name)
		case Given:
			did, err = upGiven(ctx, c, name)
		default:
			return started, errors.New(messages.T("stack.bad_kind", kind))
		}
		if did {
			started = append(started, name)
			if !slices.Contains(s.Started, name) {
				s.Started = append(s.Started, name)
			}
			if err := c.saveState(s); err != nil {
				return started, err
			}
		}
		if err != nil {
			return started, fmt.Errorf("%s: %w", messages.T("stack.start_failed", name, kind), err)
		}
	}
	return started, nil
}

// Down stops the given services (all that Up started when none are named).
// A service Up did not start is never touched.
func Down(c Config, services ...string) error {
	s := c.loadState()
	if len(services) == 0 {
		services = slices.Clone(s.Started)
	}
	var errs []error
	for _, name := range slices.Backward(All) {
		if !slices.Contains(services, name) || !slices.Contains(s.Started, name) {
			continue
		}
		var err error
		if s.Kind == "compose" {
			err = downCompose(c, name)
		} else {
			err = downNative(c, name)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("stop %s: %w", name, err))
			continue
		}
		c.Log("%s", messages.T("stack.stopped", name))
		s.Started = slices.DeleteFunc(s.Started, func(n string) bool { return n == name })
	}
	if err := c.saveState(s); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Started lists the services Up started and Down has not stopped yet.
func Started(c Config) []string { return c.loadState().Started }

func (c Config) port(service string) int {
	switch service {
	case Postgres:
		return c.PGPort
	case Redis:
		return c.RedisPort
	default:
		return c.MongoPort
	}
}

// listening reports whether something accepts TCP connections on host:port.
func listening(host string, port int) bool {
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(host, strconv.Itoa(port)), 300*time.Millisecond)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// waitFor polls ready until it returns nil or the timeout passes.
func waitFor(ctx context.Context, what string, timeout time.Duration, ready func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last error
	for {
		if last = ready(ctx); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", messages.T("stack.not_ready", what, timeout), last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
