// Package conns holds the connections a proxy has open, so that closing
// the proxy cuts every one: the latency proxy and redisfault's share it,
// and with it the rule that a connection accepted while the proxy closes
// is not served (the cut would miss it, and Close would wait on it until
// its client hung up).
package conns

import (
	"net"
	"sync"
)

// Set is the open connections of one proxy. Its zero value is empty and
// open.
type Set struct {
	mu     sync.Mutex
	open   map[net.Conn]struct{}
	closed bool
}

// Add puts c among the connections Close cuts. It reports whether the
// set is still open: after Close, c is not added, and the caller closes
// it instead of serving it.
func (s *Set) Add(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if s.open == nil {
		s.open = map[net.Conn]struct{}{}
	}
	s.open[c] = struct{}{}
	return true
}

// Remove takes c out of the set: it ended on its own.
func (s *Set) Remove(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.open, c)
}

// Close cuts every connection in the set and refuses any added later.
func (s *Set) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for c := range s.open {
		c.Close()
	}
}

// Closed says whether Close has run: a connection that ends now was cut,
// not given up by its client.
func (s *Set) Closed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
