package main

// The shell's contract (step 0's "the shell, layer by layer"), held for
// every framework: timeouts a slow client cannot outlast, a body limit
// however the body is sent, keep-alive, and a graceful shutdown. Each test
// talks to the framework over real TCP, byte by byte where it matters.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/harness/bubble"
)

// trickle writes prefix, then 'a's, one byte every 10 ms, until a write
// fails or the test ends: a slowloris client.
func trickle(t *testing.T, c net.Conn, prefix string) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	t.Cleanup(func() { close(done); wg.Wait() })
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			b := byte('a')
			if i < len(prefix) {
				b = prefix[i]
			}
			if _, err := c.Write([]byte{b}); err != nil {
				return
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
}

// cutOff waits up to within for the server to close c or answer on it
// (either way it stopped waiting for the client), and says which.
func cutOff(c net.Conn, within time.Duration) (bool, string) {
	_ = c.SetReadDeadline(time.Now().Add(within))
	buf := make([]byte, 64)
	n, err := c.Read(buf)
	switch {
	case n > 0:
		line, _, _ := strings.Cut(string(buf[:n]), "\r\n")
		return true, "answered " + line
	case err == nil:
		return true, "read nothing"
	case isTimeout(err):
		return false, ""
	}
	return true, "closed (" + err.Error() + ")"
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// tolerance is how far past the request's read timeout, counted from the
// first read deadline the server set on the connection, a later one may
// end: a framework that computes its body's deadline from a new clock
// reading once the headers are in is still right. A server that pushes
// its deadline on at every byte passes it after this much real time.
const tolerance = 2 * time.Second

// maxPushes is how many times a right server moves its read deadline later
// after reading part of one request: once the headers are in (the body's
// deadline), once more at most for a framework that sets it per phase. A
// server that pushes it on at every byte does so hundreds of times. The
// count, not the clock, is the verdict: a right server stalled past
// tolerance on a loaded machine still moved its deadline at most this often.
const maxPushes = 2

// wholeRequest is awaitCut's rule while a request arrives: the server
// waits for its bytes under a read deadline that ends at most the read
// timeout after the first one it set. A server seen waiting with none in
// force after it read two bytes more (not only before its first read) will
// never cut the client off; one whose deadline moves past that bound is
// pushed on by the client's every byte. (Real time only says whether the
// deadline ended; the verdict is what the server asked for.)
func wholeRequest(r reading) string {
	switch {
	case r.in == 0 && r.since >= 2:
		return "it kept reading the request with no read deadline in force"
	case r.in > 0 && !r.first.IsZero() && r.pushes > maxPushes && r.set.Add(r.in).After(r.first.Add(server.ReadTimeout+tolerance)):
		return fmt.Sprintf("it moved its read deadline to %v after the first one it set on the connection, past the read timeout: "+
			"the client's bytes bought it more time %d times", r.set.Add(r.in).Sub(r.first).Round(time.Second), r.pushes)
	}
	return ""
}

// A client sending its request line and headers one byte at a time,
// never finishing them, is cut off within the read timeout (15 s; net/http
// servers cut it at their 5 s header timeout).
func TestASlowlorisClientIsCutOff(t *testing.T) {
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, fast)
		c := s.dial(t)
		trickle(t, c, "GET /empty HTTP/1.1\r\nHost: x\r\nX-Slowloris: ")
		sc := s.ln.conn(t, c)
		if _, why := awaitCut(t, c, sc, wholeRequest); why != "" {
			t.Errorf("a client sending its headers one byte every 10 ms, never finishing them, was never cut off: %s. "+
				"Want it cut off within the read timeout, %v. Deadlines the server set on that connection: %s "+
				"(the shell's timeouts: server.SetTimeouts, endpoints.HTTPServer; the test makes each %d× sooner)",
				why, server.ReadTimeout, sc.asked(), fast)
		}
	})
}

// A client that sends its headers, then its body one byte at a time, is
// cut off within the read timeout: the timeout bounds the whole request.
func TestATricklingBodyIsCutOff(t *testing.T) {
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		c := s.dial(t)
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{", endpoints.ValidatePath)
		if _, err := io.WriteString(c, head); err != nil {
			t.Fatal(err)
		}
		sc := s.ln.conn(t, c)
		sc.awaitReading(t, len(head))
		sc.speedUp(fast) // the headers are in: from now on, the body's deadline
		trickle(t, c, "")
		if _, why := awaitCut(t, c, sc, wholeRequest); why != "" {
			t.Errorf("a client that sent its headers (Content-Length: 4000), then its body one byte every 10 ms, was never cut off: %s. "+
				"Want it cut off within the read timeout, %v, which bounds the whole request. Deadlines the server set on that connection: %s",
				why, server.ReadTimeout, sc.asked())
		}
	})
}

// A kept-alive connection nobody uses after its answer is closed within
// the idle timeout (2 min).
func TestAnIdleKeptAliveConnectionIsClosed(t *testing.T) {
	const idleFast = float64(server.IdleTimeout / (150 * time.Millisecond)) // 2 min: 150 ms
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		c := s.dial(t)
		resp, _, err := roundTrip(c, bufio.NewReader(c), "GET /empty HTTP/1.1\r\nHost: x\r\n\r\n")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET /empty: %v %v", resp, err)
		}
		sc := s.ln.conn(t, c)
		sc.speedUp(idleFast)
		// The server waits for a next request under the read deadline in
		// force: none, or one past the idle timeout, and it never closes.
		idle := func(r reading) string {
			switch {
			case r.in == 0:
				return "it waited for another request with no read deadline in force"
			case r.in > server.IdleTimeout+time.Second:
				return fmt.Sprintf("it waited for another request under a read deadline %v away", r.in.Round(time.Second))
			}
			return ""
		}
		if _, why := awaitCut(t, c, sc, idle); why != "" {
			t.Errorf("a kept-alive connection left idle after its answer was never closed: %s; want it closed within the idle timeout, %v. "+
				"Deadlines the server set on that connection: %s", why, server.IdleTimeout, sc.asked())
		}
	})
}

// Every answer is written under a write deadline (at most the write
// timeout, 30 s): a client that never reads cannot hold its connection.
// Answers here are small enough for the kernel's buffers, so the test
// reads the deadline the server set rather than waiting for it.
func TestEveryAnswerHasAWriteDeadline(t *testing.T) {
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		c := s.dial(t)
		if resp, _, err := roundTrip(c, bufio.NewReader(c), "GET /empty HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET /empty: %v %v", resp, err)
		}
		sc := s.ln.conn(t, c)
		sc.mu.Lock()
		ok := false
		for _, d := range sc.deadlines {
			ok = ok || d.write && d.in > 0 && d.in <= server.WriteTimeout+time.Second
		}
		sc.mu.Unlock()
		if !ok {
			t.Errorf("GET /empty was answered with no write deadline of at most %v on its connection (deadlines the server set: %s): "+
				"a client that never reads its answer holds the connection and its goroutine", server.WriteTimeout, sc.asked())
		}
	})
}

// unsized hides a body's length: the client sends it chunked, with no
// Content-Length for the server to read the size from.
type unsized struct{ io.Reader }

// A body over 64 KiB is a 413 JSON error whether or not it says its length
// up front (Content-Length, or chunked); one of exactly 64 KiB is read.
func TestTheBodyLimitIs64KiBHoweverTheBodyIsSent(t *testing.T) {
	event := string(params.Load().Event)
	padded := func(n int) string { return event + strings.Repeat(" ", n-len(event)) } // JSON allows trailing spaces
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		for _, c := range []struct {
			size int
			code int
			want string
		}{
			{server.BodyLimit, 200, `{"ok":true}`},
			{server.BodyLimit + 1, 413, "larger than"},
			{70_000, 413, "larger than"},
		} {
			for _, chunked := range []bool{false, true} {
				body := padded(c.size)
				var r io.Reader = strings.NewReader(body)
				how := fmt.Sprintf("with Content-Length: %d", c.size)
				if chunked {
					r, how = unsized{r}, "chunked, no Content-Length"
				}
				req, _ := newRequest("POST", "http://"+s.addr+endpoints.ValidatePath, r)
				code, ctype, out, err := s.send(req)
				if err != nil || code != c.code || !strings.HasPrefix(ctype, "application/json") || !strings.Contains(out, c.want) {
					t.Errorf("POST /validate, a %d-byte body %s: %d %q %.100s %v; want %d application/json containing %q",
						c.size, how, code, ctype, out, err, c.code, c.want)
				}
			}
		}
	})
}

// A body far over the limit (8 MiB, chunked) is refused having read at
// most 2 MiB of it: the limit bounds what the server reads into memory,
// not only the answer. (The fasthttp row reads up to 1 MiB before refusing.)
func TestAHugeBodyIsRefusedUnread(t *testing.T) {
	const huge, most = 8 << 20, 2 << 20
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		c := s.dial(t)
		sent := make(chan struct{})
		go func() {
			defer close(sent)
			_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
			head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", endpoints.ValidatePath)
			chunk := fmt.Sprintf("%x\r\n%s\r\n", 64<<10, strings.Repeat(" ", 64<<10))
			if _, err := io.WriteString(c, head+"1\r\n{\r\n"); err != nil {
				return
			}
			for range huge / (64 << 10) {
				if _, err := io.WriteString(c, chunk); err != nil {
					return // the server refused the rest: what a right answer does
				}
			}
			_, _ = io.WriteString(c, "0\r\n\r\n")
		}()
		<-sent // all sent, refused, or 5 s passed with the server reading nothing more
		sc := s.ln.conn(t, c)
		sc.mu.Lock()
		read := sc.read
		sc.mu.Unlock()
		if read > most {
			t.Errorf("a chunked body of 8 MiB: the server read %.1f MiB of it; want at most 2 MiB read before it refuses the body (413): "+
				"cap the reading at the limit (endpoints.ReadBody), not the length once read", float64(read)/(1<<20))
		}
	})
}

// Requests sent one after another on one connection are all answered on
// it: keep-alive, which the bench's 500 connections rely on.
func TestAConnectionIsKeptAliveAcrossRequests(t *testing.T) {
	event := string(params.Load().Event)
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		c := s.dial(t)
		br := bufio.NewReader(c)
		for i, req := range []string{
			"GET /empty HTTP/1.1\r\nHost: x\r\n\r\n",
			post(endpoints.ValidatePath, event),
			post(endpoints.ValidatePath, `{"event_name":"click"`),
			"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
		} {
			resp, _, err := roundTrip(c, br, req)
			if err != nil {
				t.Fatalf("request %d of 4 on one connection: %v (after %d answered on it)", i+1, err, i)
			}
			if resp.Close && i < 3 {
				t.Fatalf("request %d of 4 on one connection was answered %d with Connection: close; want the connection kept alive", i+1, resp.StatusCode)
			}
		}
		if n := s.ln.accepted(); n != 1 {
			t.Errorf("4 requests on one client connection: the server accepted %d connections, want 1", n)
		}
	})
}

// A client whose body is still arriving does not hold up anyone else:
// another connection is answered meanwhile.
func TestASlowClientDoesNotHoldUpOthers(t *testing.T) {
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		slow, _ := inFlight(t, s)
		defer slow.Close()
		start := time.Now()
		code, _, _, err := s.do("GET", endpoints.EmptyPath, "")
		if err != nil || code != 200 {
			t.Errorf("GET /empty on a second connection, while the server waits for a first one's body: %d %v after %v; want 200",
				code, err, time.Since(start).Round(time.Millisecond))
		}
	})
}

// inFlight sends a POST /validate with half its body, and returns once the
// server has read that half and waits for the rest (which it returns).
func inFlight(t *testing.T, s *served) (net.Conn, string) {
	t.Helper()
	c := s.dial(t)
	body := string(params.Load().Event)
	head := post(endpoints.ValidatePath, body)
	head = head[:len(head)-len(body)/2]
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	s.ln.conn(t, c).awaitReading(t, len(head))
	return c, body[len(body)-len(body)/2:]
}

// When its context ends, a framework stops accepting, lets the request in
// flight finish and be answered, and only then returns nil (soon, with an
// idle kept-alive connection open). "Only then" is an order of events: the
// test holds the rest of the body back until the framework has done all
// its context's end sets off — every goroutine of the process waits, so
// the test runs alone — and judges what it did by then, however long that
// took (stoppedAccepting).
func TestShutdownLetsTheRequestInFlightFinish(t *testing.T) {
	eachFramework(t, false, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		idle := s.dial(t)
		if resp, _, err := roundTrip(idle, bufio.NewReader(idle), "GET /empty HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET /empty: %v %v", resp, err)
		}
		c, rest := inFlight(t, s)
		s.stop()
		stoppedAccepting(t, s)
		if nc, err := net.DialTimeout("tcp", s.addr, time.Second); err == nil {
			nc.Close()
			t.Errorf("after its context ended, %s still accepted a new connection", name)
		}
		_ = c.SetDeadline(time.Now().Add(patience))
		if _, err := io.WriteString(c, rest); err != nil {
			t.Fatalf("the request in flight when the context ended: sending the rest of its body: %v (the connection was closed)", err)
		}
		resp, body, err := readResponse(bufio.NewReader(c))
		if isTimeout(err) {
			bubble.Stalled(t, patience, "the answer to the request in flight, once its body arrived")
		}
		if err != nil || resp.StatusCode != 200 || body != `{"ok":true}` {
			t.Fatalf("the request in flight when the context ended got %v %q %v once its body arrived; want its answer, 200 {\"ok\":true}", status(resp), body, err)
		}
		select {
		case <-s.returned:
		case <-time.After(patience): // a watchdog: a right framework returns in milliseconds
			bubble.Stalled(t, patience, name+" return, once the request in flight was answered (an idle kept-alive connection open)")
		}
		if s.err != nil {
			t.Errorf("%s returned %q when its context ended, want nil: a clean stop, once the request in flight was answered", name, s.err)
		}
	})
}

// stoppedAccepting waits, once s's context has ended, until s returned or
// every goroutine waits (a sleeping one included: fasthttp's worker pool
// sleeps between rounds), then judges the order of events: a framework
// that returned did so with the request in flight unanswered, and one
// whose listener is still open once everything waits never stops
// accepting. A framework that reacts to its context through a timer or a
// sleep, not at once, is judged before that reaction.
func stoppedAccepting(t *testing.T, s *served) {
	t.Helper()
	returned := func() bool {
		select {
		case <-s.returned:
			return true
		default:
			return false
		}
	}
	if bubble.UntilIdle(t, patience, s.name+" return, or every goroutine wait, once its context ended", returned) {
		t.Fatalf("%s returned (%v) while a request was in flight, its body half read: main then exits and cuts it off. "+
			"Return only once the requests in flight are answered (http.Server.Shutdown waits for them; endpoints.ServeUntil)", s.name, s.err)
	}
	s.ln.mu.Lock()
	closed := s.ln.closed
	s.ln.mu.Unlock()
	if !closed {
		t.Fatalf("after its context ended, %s waited with its listener still open: it never stops accepting. "+
			"Shut down when ctx is done (endpoints.ServeUntil)", s.name)
	}
}

func status(resp *http.Response) string {
	if resp == nil {
		return "no response"
	}
	return resp.Status
}

// newRequest is a request with a JSON body from r (chunked if r hides its length).
func newRequest(method, url string, r io.Reader) (*http.Request, error) {
	req, err := http.NewRequest(method, url, r)
	if err == nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, err
}
