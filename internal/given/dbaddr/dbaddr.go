// Package dbaddr says where the databases listen, and where the step server
// itself does (PEAKLOAD_ADDR). It is all a step server needs to know about
// the stack: starting and stopping the databases
// (pg_ctl, redis-server, compose) is internal/harness/stack's business, and no
// server links that code.
package dbaddr

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/peakload/workshop/internal/given/messages"
)

// The workshop's ports: not the databases' own defaults, so a learner's
// servers never clash with them, and below Linux's ephemeral range
// (32768–60999), where a listener on a fixed port can find it taken by some
// process's outgoing connection (EADDRINUSE flakes). Not registered ports of
// well-known services either.
const (
	DefaultHost      = "127.0.0.1"
	DefaultPGPort    = 15432
	DefaultRedisPort = 16379
	DefaultMongoPort = 17017
)

// Endpoints are the addresses a step server connects to.
type Endpoints struct {
	PostgresURL string `json:"postgres_url"`
	RedisAddr   string `json:"redis_addr"`
	MongoURL    string `json:"mongo_url"`
}

// For returns the endpoints of the services on host at these ports.
func For(host string, pgPort, redisPort, mongoPort int) Endpoints {
	return Endpoints{
		PostgresURL: fmt.Sprintf("postgres://postgres@%s:%d/workshop?sslmode=disable", host, pgPort),
		RedisAddr:   fmt.Sprintf("%s:%d", host, redisPort),
		MongoURL:    fmt.Sprintf("mongodb://%s:%d/", host, mongoPort),
	}
}

// Env returns the endpoints as environment variables for a child process:
// what the step server's configuration (internal/given/serverenv) reads.
func (e Endpoints) Env() []string {
	return []string{"PEAKLOAD_POSTGRES_URL=" + e.PostgresURL, "PEAKLOAD_REDIS_ADDR=" + e.RedisAddr, "PEAKLOAD_MONGO_URL=" + e.MongoURL}
}

// Place is where the workshop's own stack listens: one host, three ports.
type Place struct {
	Host                         string
	PGPort, RedisPort, MongoPort int
}

// Endpoints returns the URLs of the services at p.
func (p Place) Endpoints() Endpoints { return For(p.Host, p.PGPort, p.RedisPort, p.MongoPort) }

// Parse is the one reading of the variables that say where the databases
// are: the stack's host and ports (PEAKLOAD_DB_HOST, PEAKLOAD_PG_PORT,
// PEAKLOAD_REDIS_PORT, PEAKLOAD_MONGO_PORT, as `make up` uses them), and
// the endpoints a parent sets for its child (Env's three URLs), which win
// over the ports. A port that is not one (PEAKLOAD_PG_PORT=-1) is an error
// naming the variable: a default in its place would send the learner to
// another engineer's database, or to none, without a word.
func Parse(env func(string) string) (Place, Endpoints, error) {
	p := Place{Host: cmp.Or(env("PEAKLOAD_DB_HOST"), DefaultHost)}
	var errs []error
	for _, f := range []struct {
		name string
		to   *int
		def  int
	}{{"PEAKLOAD_PG_PORT", &p.PGPort, DefaultPGPort}, {"PEAKLOAD_REDIS_PORT", &p.RedisPort, DefaultRedisPort}, {"PEAKLOAD_MONGO_PORT", &p.MongoPort, DefaultMongoPort}} {
		*f.to = f.def
		if v := env(f.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 65535 {
				errs = append(errs, errors.New(messages.T("config.bad_port", f.name, v)))
			}
			*f.to = n
		}
	}
	d := p.Endpoints()
	e := Endpoints{
		PostgresURL: cmp.Or(env("PEAKLOAD_POSTGRES_URL"), d.PostgresURL),
		RedisAddr:   cmp.Or(env("PEAKLOAD_REDIS_ADDR"), d.RedisAddr),
		MongoURL:    cmp.Or(env("PEAKLOAD_MONGO_URL"), d.MongoURL),
	}
	return p, e, errors.Join(errs...)
}

// DefaultServerAddr is where a step server listens unless told: loopback
// only, so nothing is exposed unless the learner asks
// (PEAKLOAD_ADDR=0.0.0.0:8080).
const DefaultServerAddr = "127.0.0.1:8080"

// ParseServerAddr is the reading of PEAKLOAD_ADDR, by the step server
// (where to listen: a bench's parent picks a free port, `make step-N run`
// passes the learner's) and by the CLI (which prints it): "" is
// DefaultServerAddr, anything but host:port an error naming the variable.
func ParseServerAddr(v string) (string, error) {
	if v == "" {
		return DefaultServerAddr, nil
	}
	_, port, err := net.SplitHostPort(v)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
		return DefaultServerAddr, errors.New(messages.T("config.bad_addr", v))
	}
	return v, nil
}

// ServerAddrEnv is the parent's side: the variable that makes a child step
// server listen at addr.
func ServerAddrEnv(addr string) string { return "PEAKLOAD_ADDR=" + addr }
