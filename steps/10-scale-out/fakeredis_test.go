package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/harness/bubble"
)

// fakeRedis is just enough of a Redis server for Listen without the stack:
// it answers a client's handshake and SUBSCRIBE, sends the messages the
// test publishes, and can drop every subscribed connection, as a restarted
// Redis or CLIENT KILL would. The service tests run the real one.
type fakeRedis struct {
	ln      net.Listener
	channel string // the one channel it serves
	mu      sync.Mutex
	subs    map[*fakeConn]string // subscribed to channel: "", or the pattern that matched it
	everSub int                  // SUBSCRIBE commands to channel seen
	others  []string             // channels subscribed to other than channel
	closed  int                  // subscribed connections the client closed

	tmu     sync.Mutex
	wires   map[string]*wire // by the client's address
	dialing int              // the client's dials in progress
}

// wire counts one connection's traffic at both ends, end 0 the client's
// and end 1 the fake's: the bytes each end wrote and the other read
// (sent[e], got[e]: written by end e), the Reads in progress at each end,
// which end closed, and whether the client's reads have a deadline (a
// timer that ends a Read on its own: ReceiveTimeout). While every byte
// written has been read, no end waits on a Read for the other's close and
// no Read waits for its deadline, nothing is in flight between Listen and
// the fake: a goroutine waiting on a read waits for the test.
type wire struct {
	sent, got, reading [2]int
	closed             [2]bool
	deadline           bool
}

// on runs change on the wire of the connection from the client at key.
func (f *fakeRedis) on(key string, change func(w *wire)) {
	f.tmu.Lock()
	defer f.tmu.Unlock()
	w := f.wires[key]
	if w == nil {
		w = &wire{}
		f.wires[key] = w
	}
	change(w)
}

// read is a Read at end e of the connection from key, counted.
func (f *fakeRedis) read(key string, e int, read func() (int, error)) (int, error) {
	f.on(key, func(w *wire) { w.reading[e]++ })
	n, err := read()
	f.on(key, func(w *wire) { w.reading[e]--; w.got[1-e] += n })
	return n, err
}

// inFlight says whether a dial is in progress, bytes written are not yet
// read at the other end, an end waits to learn that the other closed, or
// (timers) a client's Read waits for its deadline. With unread, bytes sent
// to a client that is not reading count only once it reads: a client busy
// elsewhere leaves them waiting, and that is not in flight.
func (f *fakeRedis) inFlight(timers, unread bool) bool {
	f.tmu.Lock()
	defer f.tmu.Unlock()
	if f.dialing > 0 {
		return true
	}
	for _, w := range f.wires {
		switch {
		case w.closed[0] && w.closed[1]:
		case w.closed[0] || w.closed[1]:
			if w.closed[0] && w.reading[1] > 0 || w.closed[1] && w.reading[0] > 0 {
				return true
			}
		case w.sent[0] != w.got[0], w.sent[1] != w.got[1] && (!unread || w.reading[0] > 0),
			timers && w.reading[0] > 0 && w.deadline:
			return true
		}
	}
	return false
}

// fakeConn is the fake's end of a connection.
type fakeConn struct {
	net.Conn
	f   *fakeRedis
	wmu sync.Mutex
}

func (c *fakeConn) Read(b []byte) (int, error) {
	return c.f.read(c.RemoteAddr().String(), 1, func() (int, error) { return c.Conn.Read(b) })
}

func (c *fakeConn) Close() error {
	c.f.on(c.RemoteAddr().String(), func(w *wire) { w.closed[1] = true })
	return c.Conn.Close()
}

func (c *fakeConn) send(s string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.SetWriteDeadline(time.Now().Add(patience))
	n, _ := io.WriteString(c.Conn, s)
	c.f.on(c.RemoteAddr().String(), func(w *wire) { w.sent[1] += n })
}

// clientConn is the client's end, as the fake's client dials it.
type clientConn struct {
	net.Conn
	f *fakeRedis
}

func (c *clientConn) Read(b []byte) (int, error) {
	return c.f.read(c.LocalAddr().String(), 0, func() (int, error) { return c.Conn.Read(b) })
}

func (c *clientConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.f.on(c.LocalAddr().String(), func(w *wire) { w.sent[0] += n })
	return n, err
}

func (c *clientConn) SetDeadline(t time.Time) error {
	c.f.on(c.LocalAddr().String(), func(w *wire) { w.deadline = !t.IsZero() })
	return c.Conn.SetDeadline(t)
}

func (c *clientConn) SetReadDeadline(t time.Time) error {
	c.f.on(c.LocalAddr().String(), func(w *wire) { w.deadline = !t.IsZero() })
	return c.Conn.SetReadDeadline(t)
}

func (c *clientConn) Close() error {
	c.f.on(c.LocalAddr().String(), func(w *wire) { w.closed[0] = true })
	return c.Conn.Close()
}

func (f *fakeRedis) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	f.tmu.Lock()
	f.dialing++
	f.tmu.Unlock()
	defer func() {
		f.tmu.Lock()
		f.dialing--
		f.tmu.Unlock()
	}()
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	f.on(c.LocalAddr().String(), func(*wire) {}) // counted from its dial on
	return &clientConn{Conn: c, f: f}, nil
}

// startFakeRedis listens on 127.0.0.1 until the test ends.
func startFakeRedis(t *testing.T, channel string) *fakeRedis {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("a fake Redis for Listen: %v", err)
	}
	f := &fakeRedis{ln: ln, channel: channel, subs: map[*fakeConn]string{}, wires: map[string]*wire{}}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		f.drop()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { f.serve(&fakeConn{Conn: c, f: f}) })
		}
	})
	return f
}

// client is a go-redis client of the fake, as a replica's r.Redis is.
func (f *fakeRedis) client(t *testing.T) *redis.Client {
	rdb := redis.NewClient(&redis.Options{Addr: f.ln.Addr().String(), Protocol: 2, DisableIdentity: true,
		DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second, Dialer: f.dial})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func (f *fakeRedis) update(change func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change()
}

// await waits until cond (read under the lock) holds (true), or until
// nothing can happen before the test acts (false): no dial in progress,
// every byte either end wrote read by the other, and every goroutine
// waiting, seen twice a pause apart. So a verdict rests on what Listen was
// sent and did with it, never on how long it took. Past patience the
// machine stalled: the test stops with no verdict. A Read's deadline still
// to come counts as something that can happen (Listen may look at ctx
// when ReceiveTimeout ends).
func (f *fakeRedis) await(t *testing.T, what string, cond func() bool) bool {
	t.Helper()
	return f.until(t, what, true, false, cond)
}

// handled waits until Listen has done all it will with what it was sent:
// every byte read, and every goroutine waiting. A Read's deadline still to
// come only starts another turn of its loop, which reads nothing new.
func (f *fakeRedis) handled(t *testing.T, what string) {
	t.Helper()
	f.until(t, what, false, false, func() bool { return false })
}

// busy is await for a client that may be busy with what it read: bytes
// sent to it wait while it does not read them (a Listen inside a Forget
// reads no further), and cond is judged once all else waits.
func (f *fakeRedis) busy(t *testing.T, what string, cond func() bool) bool {
	t.Helper()
	return f.until(t, what, false, true, cond)
}

func (f *fakeRedis) until(t *testing.T, what string, timers, unread bool, cond func() bool) bool {
	t.Helper()
	held := func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return cond()
	}
	start, pause, still := time.Now(), 10*time.Microsecond, 0
	for !held() {
		if still = map[bool]int{true: still + 1}[!f.inFlight(timers, unread) && bubble.Settled("")]; still == 2 {
			return held()
		}
		if time.Since(start) > patience {
			bubble.Stalled(t, patience, what)
		}
		time.Sleep(pause) // let the goroutines run before the next look
		pause = min(2*pause, time.Millisecond)
	}
	return true
}

// subscribed is how many connections are subscribed now.
func (f *fakeRedis) subscribed() int { return len(f.subs) }

// publish sends payload on every subscribed connection, as PUBLISH would.
func (f *fakeRedis) publish(payload string) {
	f.mu.Lock()
	subs := maps.Clone(f.subs)
	f.mu.Unlock()
	for c, pattern := range subs {
		if pattern == "" {
			c.send(array("message", f.channel, payload))
		} else {
			c.send(array("pmessage", pattern, f.channel, payload))
		}
	}
}

// drop closes every subscribed connection from the server's side.
func (f *fakeRedis) drop() {
	f.update(func() {
		for c := range f.subs {
			c.Close()
			delete(f.subs, c)
		}
	})
}

func (f *fakeRedis) serve(c *fakeConn) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		cmd, err := readCommand(r)
		if err != nil {
			f.update(func() {
				if _, ok := f.subs[c]; ok {
					f.closed++
					delete(f.subs, c)
				}
			})
			return
		}
		switch strings.ToUpper(cmd[0]) {
		case "HELLO":
			c.send("-ERR unknown command 'HELLO'\r\n") // the client falls back to RESP2
		case "PING":
			f.mu.Lock()
			_, sub := f.subs[c]
			f.mu.Unlock()
			if sub {
				c.send(array("pong", ""))
			} else {
				c.send("+PONG\r\n")
			}
		case "SUBSCRIBE", "PSUBSCRIBE":
			kind := strings.ToLower(cmd[0])
			for i, ch := range cmd[1:] {
				c.send(fmt.Sprintf("*3\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n:%d\r\n", len(kind), kind, len(ch), ch, i+1))
			}
			f.update(func() {
				for _, ch := range cmd[1:] {
					pattern, match := "", ch == f.channel
					if kind == "psubscribe" {
						pattern = ch
						match, _ = path.Match(ch, f.channel)
					}
					if !match {
						f.others = append(f.others, ch)
						continue
					}
					f.subs[c] = pattern
					f.everSub++
				}
			})
		case "UNSUBSCRIBE", "PUNSUBSCRIBE":
			kind := strings.ToLower(cmd[0])
			for _, ch := range cmd[1:] {
				c.send(fmt.Sprintf("*3\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n:0\r\n", len(kind), kind, len(ch), ch))
			}
			f.update(func() { delete(f.subs, c) })
		default:
			c.send("+OK\r\n")
		}
	}
}

// readCommand reads one RESP array of bulk strings, as clients send them.
func readCommand(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "*")))
	if err != nil || n < 1 || n > 64 {
		return nil, fmt.Errorf("not a command: %q", line)
	}
	cmd := make([]string, n)
	for i := range cmd {
		head, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		size, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(head, "$")))
		if err != nil || size < 0 || size > 1<<16 {
			return nil, fmt.Errorf("not a bulk string: %q", head)
		}
		b := make([]byte, size+2)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		cmd[i] = string(b[:size])
	}
	return cmd, nil
}

func array(items ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(items))
	for _, s := range items {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(s), s)
	}
	return b.String()
}
