package afastify_test

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/peakload/workshop/internal/harness/stacktest"
)

// wire is a TCP proxy between the original and one of the services that
// counts, at the service's door, what the original sent: PostgreSQL
// statements executed (Execute and simple Query messages) or Redis
// commands by name, and the bytes the service answered. A count is taken
// before the message is passed on, so it is there by the time the HTTP
// response that needed it arrives: no waiting, no other client's traffic.
type wire struct {
	Addr string

	mu     sync.Mutex
	counts map[string]int
	read   int64 // bytes from the service to the original
}

// count returns the current tally of name ("statement", "get", "set"…).
func (w *wire) count(name string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.counts[name]
}

// readBytes is how many bytes the service has sent the original.
func (w *wire) readBytes() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.read
}

func (w *wire) add(name string, n int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if name != "" {
		w.counts[name]++
	}
	w.read += n
}

// newWire starts a proxy to target whose client side is parsed by parse,
// which forwards every message and counts it; closed when t ends.
func newWire(t *testing.T, target string, parse func(w *wire, from *bufio.Reader, to io.Writer) error) *wire {
	t.Helper()
	w := &wire{counts: map[string]int{}}
	w.Addr = stacktest.Proxy(t, target, func(client, server net.Conn) {
		go func() {
			defer server.Close()
			_ = parse(w, bufio.NewReader(client), server)
		}()
		go func() {
			defer client.Close()
			n, _ := io.Copy(client, server)
			w.add("", n)
		}()
	})
	return w
}

// postgres forwards the frontend protocol: an untyped startup message,
// then typed messages (a type byte, an int32 length that counts itself).
// Each Execute ('E') or simple Query ('Q') is one statement run.
func postgres(w *wire, from *bufio.Reader, to io.Writer) error {
	first := true
	for {
		var head []byte
		if !first {
			b, err := from.ReadByte()
			if err != nil {
				return err
			}
			head = append(head, b)
		}
		var n [4]byte
		if _, err := io.ReadFull(from, n[:]); err != nil {
			return err
		}
		msg := make([]byte, binary.BigEndian.Uint32(n[:])-4)
		if _, err := io.ReadFull(from, msg); err != nil {
			return err
		}
		if !first && (head[0] == 'E' || head[0] == 'Q') {
			w.add("statement", 0)
		}
		first = false
		if _, err := to.Write(append(append(head, n[:]...), msg...)); err != nil {
			return err
		}
	}
}

// redisRESP forwards RESP commands (an array of bulk strings, as ioredis
// sends them), counting each by its lower-case name.
func redisRESP(w *wire, from *bufio.Reader, to io.Writer) error {
	for {
		line, err := from.ReadString('\n')
		if err != nil {
			return err
		}
		if !strings.HasPrefix(line, "*") {
			return fmt.Errorf("not a RESP array: %q", line)
		}
		args, _ := strconv.Atoi(strings.TrimSpace(line[1:]))
		buf := []byte(line)
		var name string
		for i := 0; i < args; i++ {
			l, err := from.ReadString('\n')
			if err != nil {
				return err
			}
			size, _ := strconv.Atoi(strings.TrimSpace(l[1:]))
			arg := make([]byte, size+2)
			if _, err := io.ReadFull(from, arg); err != nil {
				return err
			}
			if i == 0 {
				name = strings.ToLower(string(arg[:size]))
			}
			buf = append(append(buf, l...), arg...)
		}
		w.add(name, 0)
		if _, err := to.Write(buf); err != nil {
			return err
		}
	}
}
