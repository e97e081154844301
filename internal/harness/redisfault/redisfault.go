// Package redisfault puts a proxy between a check and a real Redis that
// makes it fail the ways a starting, busy or overloaded Redis fails: an
// error reply (LOADING, BUSY, OOM, …), a command that is never answered,
// a connection closed under the command. Everything else goes through to
// the real server, handshake included, so the client is the one the step
// uses and the failures are the ones it meets in production.
//
// It is for tests (it takes a testing.TB, like internal/harness/stacktest): the
// checks of steps 2 and 5 use it to hold the learner's code to fail-open
// and to the request's context on every way a GET can fail.
package redisfault

import (
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/peakload/workshop/internal/harness/conns"
)

// A Fault is what the proxy does with a command: the zero Fault passes it
// on to Redis.
type Fault struct {
	reply  string // an error line to answer instead of Redis, without "-" and CRLF
	stall  bool   // keep the command and answer nothing, until the client hangs up
	hangUp bool   // close the connection on receiving the command
}

// Reply answers the command with the error line (e.g. "LOADING Redis is
// loading the dataset in memory") instead of passing it on.
func Reply(line string) Fault { return Fault{reply: line} }

var (
	// Pass sends the command to Redis and its reply back.
	Pass = Fault{}
	// Stall never answers the command: a Redis stuck in a slow script,
	// swapping, or behind a saturated network. The client's read times out.
	Stall = Fault{stall: true}
	// HangUp closes the connection once the command is in: a Redis that
	// restarts or is killed mid-request, or a proxy that drops idle clients.
	HangUp = Fault{hangUp: true}
)

// Proxy listens on a loopback port of its own and forwards to a Redis.
type Proxy struct {
	target string
	ln     net.Listener
	wg     sync.WaitGroup

	mu       sync.Mutex
	faults   map[string]Fault // by lower-case command name
	received map[string]int   // commands received, by lower-case name
	open     conns.Set

	stalled   chan string   // the name of each command the proxy holds
	abandoned chan struct{} // a client hung up on a command the proxy held
}

// Start returns a proxy to the Redis at target; t's cleanup closes it.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("redisfault: listen: %v", err)
	}
	p := &Proxy{target: target, ln: ln, faults: map[string]Fault{}, received: map[string]int{},
		stalled: make(chan string, 64), abandoned: make(chan struct{}, 64)}
	p.wg.Go(p.accept)
	t.Cleanup(p.close)
	return p
}

// Addr is the proxy's host:port, for the client under test.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// On sets what the proxy does with the command named cmd (case-insensitive)
// from now on.
func (p *Proxy) On(cmd string, f Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults[strings.ToLower(cmd)] = f
}

// Received is how many commands named cmd reached the proxy so far,
// faulted or not.
func (p *Proxy) Received(cmd string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.received[strings.ToLower(cmd)]
}

// Stalled receives the name of each command the proxy holds, when it holds it.
func (p *Proxy) Stalled() <-chan string { return p.stalled }

// Abandoned receives once for each held command whose client closed the
// connection instead of waiting on: the call was given up.
func (p *Proxy) Abandoned() <-chan struct{} { return p.abandoned }

func (p *Proxy) close() {
	p.ln.Close()
	p.open.Close()
	p.wg.Wait()
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.wg.Go(func() { p.serve(c) })
	}
}

func (p *Proxy) fault(name string) Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.received[name]++
	return p.faults[name]
}
