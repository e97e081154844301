// Package latency puts a slower network between a step server and its
// databases: a TCP proxy that holds every request for a fixed delay before
// passing it on, so each round trip to PostgreSQL or Redis costs that much
// more. It is how the workshop checks that its verdicts hold on a learner's
// machine, where Docker Desktop, WSL or a slower laptop make the same round
// trip 2–4× slower than a native one here (`LATENCY=0.2ms make step-2 bench`).
//
// Go's timers wake up about 1 ms late on an idle process, too coarse for
// a 0.2 ms delay, so on Linux the proxy waits on a timerfd through Go's
// poller (sleep_linux.go): precise to tens of microseconds, no thread held.
package latency

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/conns"
	"github.com/peakload/workshop/internal/harness/stack"
)

// Proxy forwards connections from its own loopback port to a target,
// delaying what the client sends by Delay.
type Proxy struct {
	Delay  time.Duration
	target string
	ln     net.Listener
	open   conns.Set
	wg     sync.WaitGroup
}

// Start listens on a free port of 127.0.0.1 and forwards to target.
func Start(target string, delay time.Duration) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("latency proxy for %s: %w", target, err)
	}
	p := &Proxy{Delay: delay, target: target, ln: ln}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Port is the proxy's port.
func (p *Proxy) Port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// Close stops accepting, cuts every open connection and waits for them.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.open.Close()
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.serve(client)
		}()
	}
}

func (p *Proxy) serve(client net.Conn) {
	defer client.Close()
	upstream, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		return // the client sees the connection close, as with a dead server
	}
	defer upstream.Close()
	if !p.open.Add(client) {
		return // the proxy is closing
	}
	defer p.open.Remove(client)
	if !p.open.Add(upstream) {
		return
	}
	defer p.open.Remove(upstream)
	noDelay(client)
	noDelay(upstream)

	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(client, upstream) // answers go back at once
		client.Close()
	}()
	p.forward(upstream, client)
	upstream.Close()
	<-done
}

// forward copies what the client sends to the upstream, each read held
// until Delay after it arrived. A pipelined burst waits once, not once
// per chunk: the deadline is counted from each chunk's arrival.
func (p *Proxy) forward(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	t := newTimer()
	defer t.close()
	for {
		n, err := src.Read(buf)
		if n > 0 {
			t.sleepUntil(time.Now().Add(p.Delay))
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func noDelay(c net.Conn) {
	if t, ok := c.(*net.TCPConn); ok {
		_ = t.SetNoDelay(true)
	}
}

// Process is a Proxy serving in a process of its own (`workshop
// latency-proxy`), as Docker's port proxy is: its work never holds up the
// load driver's goroutines.
type Process struct {
	Addr  string
	Delay time.Duration
	cmd   *exec.Cmd
}

// Spawn starts `bin latency-proxy` in front of target and waits for the
// address it prints.
func Spawn(bin, target string, delay time.Duration) (*Process, error) {
	cmd := exec.Command(bin, "latency-proxy", "-target", target, "-delay", delay.String())
	cmd.SysProcAttr = childAttr()
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("latency proxy for %s: %w", target, err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("latency proxy for %s did not start: %w", target, err)
	}
	return &Process{Addr: strings.TrimSpace(line), Delay: delay, cmd: cmd}, nil
}

// Close stops the proxy process.
func (p *Process) Close() error {
	if p == nil {
		return nil
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	_ = p.cmd.Wait()
	return nil
}

// Serve is the body of `workshop latency-proxy`: proxy until ctx ends,
// after printing the address to out.
func Serve(ctx context.Context, target string, delay time.Duration, out io.Writer) error {
	p, err := Start(target, delay)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, p.Addr())
	<-ctx.Done()
	return p.Close()
}

// Stack is a pair of proxy processes in front of a stack's PostgreSQL and Redis.
type Stack struct {
	Postgres, Redis *Process
}

// Wrap starts proxies (bin latency-proxy) in front of the PostgreSQL and
// Redis of e and returns the endpoints that go through them. MongoDB is
// left direct: no claim of steps 1–5 depends on it.
func Wrap(bin string, e stack.Endpoints, delay time.Duration) (stack.Endpoints, *Stack, error) {
	u, err := url.Parse(e.PostgresURL)
	if err != nil {
		return e, nil, fmt.Errorf("latency: %w", err)
	}
	pg, err := Spawn(bin, u.Host, delay)
	if err != nil {
		return e, nil, err
	}
	rd, err := Spawn(bin, e.RedisAddr, delay)
	if err != nil {
		pg.Close()
		return e, nil, err
	}
	out := e
	u.Host = pg.Addr
	out.PostgresURL = u.String()
	out.RedisAddr = rd.Addr
	return out, &Stack{Postgres: pg, Redis: rd}, nil
}

// Close stops both proxies.
func (s *Stack) Close() error {
	if s == nil {
		return nil
	}
	return errors.Join(s.Postgres.Close(), s.Redis.Close())
}

// Parse reads a delay as LATENCY gives it: "0.2ms", "200us", or a bare
// number of milliseconds ("0.2").
func Parse(s string) (time.Duration, error) {
	if s == "" || s == "0" {
		return 0, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return d, nil
	}
	ms, err := strconv.ParseFloat(s, 64)
	if err != nil || ms < 0 {
		return 0, errors.New(messages.T("latency.bad", s))
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}
