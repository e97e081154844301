package main

import (
	"bufio"
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
	changed chan struct{}        // closed and replaced on every change above
}

type fakeConn struct {
	net.Conn
	wmu sync.Mutex
}

func (c *fakeConn) send(s string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.SetWriteDeadline(time.Now().Add(time.Second))
	io.WriteString(c, s)
}

// startFakeRedis listens on 127.0.0.1 until the test ends.
func startFakeRedis(t *testing.T, channel string) *fakeRedis {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("a fake Redis for Listen: %v", err)
	}
	f := &fakeRedis{ln: ln, channel: channel, subs: map[*fakeConn]string{}, changed: make(chan struct{})}
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
			wg.Go(func() { f.serve(&fakeConn{Conn: c}) })
		}
	})
	return f
}

// client is a go-redis client of the fake, as a replica's r.Redis is.
func (f *fakeRedis) client(t *testing.T) *redis.Client {
	rdb := redis.NewClient(&redis.Options{Addr: f.ln.Addr().String(), Protocol: 2, DisableIdentity: true,
		DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func (f *fakeRedis) update(change func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change()
	close(f.changed)
	f.changed = make(chan struct{})
}

// await waits up to limit for cond (read under the lock) to hold.
func (f *fakeRedis) await(limit time.Duration, cond func() bool) bool {
	deadline := time.After(limit)
	for {
		f.mu.Lock()
		ok, ch := cond(), f.changed
		f.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline:
			return false
		}
	}
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
