package load

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// StopGrace is how long a run waits, once its window has ended or it was
// interrupted, for the requests still in flight; then it closes their
// connections. A server that never answers then holds the run for this
// long, not for the request timeout times fasthttp's retries (30 s × 5).
const StopGrace = 500 * time.Millisecond

// DialTimeout bounds the opening of one connection.
const DialTimeout = 5 * time.Second

// ErrStopped is what a request cut by the run's end reports: it had no
// answer when the run stopped waiting.
var ErrStopped = errors.New("no answer when the run ended: the driver closed the connection")

// conns are a run's connections. Each counts the bytes the clients read
// (the public bandwidth of article A3, measured on the wire rather than
// estimated); closeAll ends every one, and no new one opens after it.
type conns struct {
	wire   *atomic.Int64
	mu     sync.Mutex
	open   map[*countingConn]struct{}
	closed bool
	// raw opens the connection itself: nil for TCP; a test's in-memory
	// pipe, so a run can sit in a testing/synctest bubble (fake time, a
	// verdict however loaded the machine).
	raw func(addr string) (net.Conn, error)
}

// newConns counts into wire the bytes read on connections raw opens (nil:
// TCP).
func newConns(wire *atomic.Int64, raw func(addr string) (net.Conn, error)) *conns {
	return &conns{wire: wire, open: map[*countingConn]struct{}{}, raw: raw}
}

// dial opens a connection to addr, an IPv4 or IPv6 address: fasthttp's
// plain DialTimeout resolves tcp4 only, so [::1] needs the dual-stack one.
func (cs *conns) dial(addr string) (net.Conn, error) {
	if cs.isClosed() {
		return nil, ErrStopped
	}
	raw := cs.raw
	if raw == nil {
		raw = func(addr string) (net.Conn, error) { return fasthttp.DialDualStackTimeout(addr, DialTimeout) }
	}
	c, err := raw(addr)
	if err != nil {
		return nil, err
	}
	cc := &countingConn{Conn: c, n: cs.wire, owner: cs}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.closed {
		c.Close()
		return nil, ErrStopped
	}
	cs.open[cc] = struct{}{}
	return cc, nil
}

func (cs *conns) isClosed() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.closed
}

// closeAll closes every connection still open: a request waiting on one
// returns at once with ErrStopped.
func (cs *conns) closeAll() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.closed = true
	for c := range cs.open {
		_ = c.Conn.Close()
	}
}

// stopAfterGrace waits for done (every user returned) for StopGrace, then
// closes the connections of those still waiting and waits for them.
func (cs *conns) stopAfterGrace(done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-time.After(StopGrace):
	}
	cs.closeAll()
	<-done
}

type countingConn struct {
	net.Conn
	n     *atomic.Int64
	owner *conns
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	if err != nil && errors.Is(err, net.ErrClosed) && c.owner.isClosed() {
		err = ErrStopped
	}
	return n, err
}

func (c *countingConn) Close() error {
	c.owner.mu.Lock()
	delete(c.owner.open, c)
	c.owner.mu.Unlock()
	return c.Conn.Close()
}
