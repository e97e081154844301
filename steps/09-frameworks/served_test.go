package main

// The test's side of a framework under test: it is served on a listener
// the test watches (what it accepts, the deadlines it sets on each
// connection, how much it has read), over real TCP on 127.0.0.1.

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/harness/bubble"
)

// TestMain lets the parallel subtests all run at once: they wait on timers
// and sockets, not on the CPU, so go test's default (GOMAXPROCS at a time,
// 2 here) would only queue them. A -parallel given on the command line wins.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", "64")
	}
	os.Exit(m.Run())
}

// fast is how many times sooner than asked the test makes every deadline a
// server sets on a connection: the shell's 5 s header and 15 s read
// timeouts become 50 and 150 ms, so a slowloris client is cut off over
// real TCP in a test-sized time. What the server asked is recorded as asked.
const fast = 100

// patience bounds every real wait of these tests: a right answer gives
// what is awaited in milliseconds, so its expiry says the machine stalled
// (bubble.Stalled), never that the code is wrong. Verdicts come from what
// the server did and asked for (its reads, its deadlines, its Close).
const patience = 30 * time.Second

// together is set once tests run in parallel: from then on the process's
// goroutines are never all waiting at once, so no test can wait for that
// (bubble.UntilIdle), and a wait that has no event to end it is bounded by
// patience and says the machine stalled.
var together atomic.Bool

// watch is a mutex with a broadcast: await wakes up at every update.
type watch struct {
	mu      sync.Mutex
	changed chan struct{}
}

func (w *watch) update(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f()
	if w.changed != nil {
		close(w.changed)
	}
	w.changed = make(chan struct{})
}

// await reports whether cond (called under the lock) held within timeout.
func (w *watch) await(cond func() bool, timeout time.Duration) bool {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		w.mu.Lock()
		ok := cond()
		if w.changed == nil {
			w.changed = make(chan struct{})
		}
		ch := w.changed
		w.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-timer.C:
			return false
		}
	}
}

// watchedListener is the ln a framework gets.
type watchedListener struct {
	net.Listener
	scale float64 // each accepted connection's deadlines, this many times sooner
	watch
	accepting bool // Accept was called: the framework serves
	closed    bool // Close was called: no new connections
	returned  bool // the framework's function returned
	conns     []*watchedConn
}

func (l *watchedListener) Accept() (net.Conn, error) {
	l.update(func() { l.accepting = true })
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	wc := &watchedConn{Conn: c, scale: l.scale}
	l.update(func() { l.conns = append(l.conns, wc) })
	return wc, nil
}

func (l *watchedListener) Close() error {
	l.update(func() { l.closed = true })
	return l.Listener.Close()
}

func (l *watchedListener) accepted() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// conn is the server's end of the client's connection c, once the server
// accepted it. A right answer accepts in milliseconds: past patience the
// machine stalled, and the test stops with no verdict.
func (l *watchedListener) conn(t *testing.T, c net.Conn) *watchedConn {
	t.Helper()
	var found *watchedConn
	if !l.await(func() bool {
		for _, sc := range l.conns {
			if sc.RemoteAddr().String() == c.LocalAddr().String() {
				found = sc
			}
		}
		return found != nil
	}, patience) {
		bubble.Stalled(t, patience, "the server accept the connection the test opened, on the listener it was given")
	}
	return found
}

// deadline is one deadline a server set on a connection, as it asked.
type deadline struct {
	write bool
	in    time.Duration // from the call; 0: cleared
}

func (d deadline) String() string {
	kind := "read"
	if d.write {
		kind = "write"
	}
	if d.in == 0 {
		return kind + " cleared"
	}
	return kind + " in " + d.in.Round(10*time.Millisecond).String()
}

// watchedConn is the server's end of one connection.
type watchedConn struct {
	net.Conn
	watch
	scale     float64
	deadlines []deadline // the last 64, oldest first
	readSet   time.Time  // when the read deadline in force was set…
	readIn    time.Duration
	firstRead time.Time // when the server first set a read deadline
	pushes    int       // read deadlines set later than the one before, with bytes read in between
	read      int       // bytes the server has read
	sinceSet  int       // …of them since it last set a read deadline
	reading   int       // Reads in progress
	watching  int       // …of them net/http's background read (see fromBackgroundRead)
	watched   int       // background reads begun
	writes    int       // Writes begun
	readAfter int       // Writes begun when the newest other Read began
	hungUp    bool      // the server called Close or CloseWrite
}

func (c *watchedConn) Read(b []byte) (int, error) {
	bg := fromBackgroundRead()
	c.update(func() {
		c.reading++
		if bg {
			c.watching++
			c.watched++
		} else {
			c.readAfter = c.writes
		}
	})
	n, err := c.Conn.Read(b)
	c.update(func() {
		c.reading--
		if bg {
			c.watching--
		}
		c.read += n
		c.sinceSet += n
	})
	return n, err
}

// backgroundReader is net/http's background read, by its function's name.
const backgroundReader = "net/http.(*connReader).backgroundRead"

// fromBackgroundRead reports whether Read was called by net/http's
// background read. While a handler runs, net/http reads one byte with its
// deadline cleared, to notice a client that hangs up, and aborts that read
// once the answer is written. That goroutine may begin its Read only after
// the answer on a loaded machine: it is never a wait for the next request.
func fromBackgroundRead() bool {
	var pcs [3]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs[:])]) // Read's caller, and theirs
	for {
		f, more := frames.Next()
		if f.Function == backgroundReader {
			return true
		}
		if !more {
			return false
		}
	}
}

// The rig tells net/http's background read from a wait for the next
// request by its caller's name (fromBackgroundRead). Should a Go release
// rename it, this fails, and says it is the rig's, not the answer's.
func TestTheRigSeesNetHTTPsBackgroundRead(t *testing.T) {
	s := serve(t, "nethttp", &endpoints.App{Name: "nethttp"}, 1)
	c := s.dial(t)
	if resp, _, err := roundTrip(c, bufio.NewReader(c), "GET /empty HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /empty on the nethttp row: %v %v", resp, err)
	}
	sc := s.ln.conn(t, c)
	// net/http reads the next request only once its background read ended.
	next := func() bool { return sc.reading > sc.watching && sc.readAfter == sc.writes }
	if !sc.await(next, patience) {
		bubble.Stalled(t, patience, "net/http wait for the next request on its connection")
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.watched == 0 {
		t.Errorf("the test rig, not your answer: net/http answered a GET with no body and waits for the next request, and no Read "+
			"came from %s, the background read the rig knows by that name: this Go (%s) must have renamed it. "+
			"Fix fromBackgroundRead in served_test.go", backgroundReader, runtime.Version())
	}
}

// Write is counted so that a Read begun before an answer (still that
// request's) is not taken for a wait for the next request.
func (c *watchedConn) Write(b []byte) (int, error) {
	c.update(func() { c.writes++ })
	return c.Conn.Write(b)
}

func (c *watchedConn) Close() error {
	c.update(func() { c.hungUp = true })
	return c.Conn.Close()
}

func (c *watchedConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}

func (c *watchedConn) SetReadDeadline(t time.Time) error  { return c.set(t, false) }
func (c *watchedConn) SetWriteDeadline(t time.Time) error { return c.set(t, true) }

// CloseWrite lets net/http half-close before closing, as it does on TCP.
func (c *watchedConn) CloseWrite() error {
	c.update(func() { c.hungUp = true })
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *watchedConn) set(t time.Time, write bool) (err error) {
	now := time.Now()
	c.update(func() {
		d := deadline{write: write}
		if !t.IsZero() {
			d.in = max(t.Sub(now), time.Nanosecond) // a deadline in the past is not "cleared"
		}
		if len(c.deadlines) == 64 {
			c.deadlines = slices.Delete(c.deadlines, 0, 1)
		}
		c.deadlines = append(c.deadlines, d)
		if !write {
			if d.in > 0 && c.readIn > 0 && c.sinceSet > 0 && now.Add(d.in).After(c.readSet.Add(c.readIn)) {
				c.pushes++ // the client's bytes bought the server's wait more time
			}
			c.readSet, c.readIn, c.sinceSet = now, d.in, 0
			if c.firstRead.IsZero() && d.in > 0 {
				c.firstRead = now
			}
		}
		err = c.apply(now, d)
	})
	return err
}

// apply sets d on the real connection, c.scale times sooner (under c.mu).
func (c *watchedConn) apply(set time.Time, d deadline) error {
	var t time.Time
	if d.in > 0 {
		t = set.Add(time.Duration(float64(d.in) / c.scale))
	}
	if d.write {
		return c.Conn.SetWriteDeadline(t)
	}
	return c.Conn.SetReadDeadline(t)
}

// speedUp makes this connection's deadlines scale times sooner from now
// on, the read deadline in force included.
func (c *watchedConn) speedUp(scale float64) {
	c.update(func() {
		c.scale = scale
		if c.readIn > 0 {
			_ = c.apply(c.readSet, deadline{in: c.readIn})
		}
	})
}

// asked lists the deadlines the server set on c.
func (c *watchedConn) asked() string {
	if c == nil {
		return "(the connection was never accepted)"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.deadlines) == 0 {
		return "none"
	}
	s := make([]string, len(c.deadlines))
	for i, d := range c.deadlines {
		s[i] = d.String()
	}
	return strings.Join(s, ", ")
}

// awaitReading waits until the server has read n bytes of c and is
// blocked reading more: the request is in flight, in the server's hands.
// Past patience the machine stalled: the test stops, with no verdict.
func (c *watchedConn) awaitReading(t *testing.T, n int) {
	t.Helper()
	if !c.await(func() bool { return c.read >= n && c.reading > 0 }, patience) {
		bubble.Stalled(t, patience, fmt.Sprintf("the server read the first %d bytes of a request and wait for more (it read %d)", n, c.read))
	}
}

// reading is what the server's end of a connection shows while the
// server waits to read more of it: the read deadline in force as asked
// (when it was set, how far ahead: 0 none), the bytes read since, and
// when the connection's first read deadline was set.
type reading struct {
	set, first time.Time
	in         time.Duration
	since      int
	pushes     int
}

// awaitCut waits until the server closes c or answers on it (how says
// which), or until never, asked each time the server waits to read c,
// says why it will not (why); a cut is judged by never too, on the last
// read deadline the server set. Neither within patience: the machine
// stalled, and the test stops with no verdict. A verdict never rests on
// how long the cut took, only on what the server did and asked for.
func awaitCut(t *testing.T, c net.Conn, sc *watchedConn, never func(reading) string) (how, why string) {
	t.Helper()
	got := make(chan string, 1)
	go func() { _, how := cutOff(c, 2*patience); got <- how }() // ends when the test closes c
	bound := time.NewTimer(patience)
	defer bound.Stop()
	for {
		sc.mu.Lock()
		last := reading{set: sc.readSet, first: sc.firstRead, in: sc.readIn, since: sc.sinceSet, pushes: sc.pushes}
		if sc.reading > sc.watching && sc.readAfter == sc.writes && !sc.hungUp { // waiting since its last answer
			why = never(last)
		}
		if sc.changed == nil {
			sc.changed = make(chan struct{})
		}
		changed := sc.changed
		sc.mu.Unlock()
		if why != "" {
			return "", why
		}
		select {
		case how = <-got:
			// Cut off: by a deadline it asked for, which must obey the
			// rule too (a timeout twice too long still cuts, later).
			if last.since = 0; last.in == 0 {
				return how, "" // a deadline cleared on the way out
			}
			return how, never(last)
		case <-changed:
		case <-bound.C:
			bubble.Stalled(t, patience, "the server close the connection or answer on it")
		}
	}
}

// served is a framework serving on a watched listener until stopped.
type served struct {
	name     string
	ln       *watchedListener
	addr     string
	stop     context.CancelFunc
	returned chan struct{}
	err      error // what the framework returned, once returned is closed
	client   *http.Client
}

// serve starts framework name on a fresh listener whose connections'
// deadlines run scale times sooner; the test's end stops it.
func serve(t *testing.T, name string, app *endpoints.App, scale float64) *served {
	t.Helper()
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &watchedListener{Listener: raw, scale: scale}
	ctx, stop := context.WithCancel(context.Background())
	s := &served{name: name, ln: ln, addr: raw.Addr().String(), stop: stop, returned: make(chan struct{}),
		client: &http.Client{Timeout: patience, Transport: &http.Transport{}}}
	go func() {
		defer close(s.returned)
		defer ln.update(func() { ln.returned = true })
		defer raw.Close() // a framework that failed must leave no port accepting
		defer func() {
			if r := recover(); r != nil {
				s.err = fmt.Errorf("panicked: %v", r)
			}
		}()
		s.err = frameworks[name](ctx, ln, app)
	}()
	// The end of a test stops the framework without waiting for it:
	// TestShutdownLetsTheRequestInFlightFinish holds the shutdown, and the
	// others need not each wait out a framework's drain.
	t.Cleanup(func() {
		s.client.CloseIdleConnections()
		s.stop()
	})
	serving := func() bool { return ln.accepting || ln.returned }
	switch {
	case !together.Load():
		// Alone in the process, until it calls Accept or every goroutine
		// waits (then it waits for something else: connections on an
		// address of its own, say).
		locked := func() bool { ln.mu.Lock(); defer ln.mu.Unlock(); return serving() }
		if !bubble.UntilIdle(t, patience, name+" call Accept on the listener it was given", locked) {
			t.Fatalf("%s waits, and never called Accept on the listener it was given: serve on ln, not on an address of your own", name)
		}
	case !ln.await(serving, patience): // beside other tests, whose goroutines never all wait at once
		bubble.Stalled(t, patience, name+" call Accept on the listener it was given (TestYoursIsAFrameworkOfItsOwn, run alone, says why not)")
	}
	select {
	case <-s.returned:
		t.Fatalf("%s returned at once, before serving anything: %v", name, s.err)
	default:
	}
	return s
}

// do sends one request through the server's keep-alive client.
func (s *served) do(method, path, body string) (code int, ctype, out string, err error) {
	req, err := http.NewRequest(method, "http://"+s.addr+path, strings.NewReader(body))
	if err != nil {
		return 0, "", "", err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return s.send(req)
}

func (s *served) send(req *http.Request) (code int, ctype, out string, err error) {
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, "", "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b), err
}

// dial opens a raw connection to the server, closed at the test's end.
func (s *served) dial(t *testing.T) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", s.addr, patience)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// roundTrip writes a raw request on c and reads its response.
func roundTrip(c net.Conn, br *bufio.Reader, raw string) (*http.Response, string, error) {
	_ = c.SetDeadline(time.Now().Add(patience))
	defer c.SetDeadline(time.Time{})
	if _, err := io.WriteString(c, raw); err != nil {
		return nil, "", err
	}
	return readResponse(br)
}

func readResponse(br *bufio.Reader) (*http.Response, string, error) {
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

// post is a raw POST of body to path, with its Content-Length.
func post(path, body string) string {
	return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", path, len(body), body)
}

// eachFramework runs f for every framework of the table and yours, in
// parallel with each other and with the other parallel tests, unless the
// test counts something shared or waits for every goroutine of the process
// to wait (then it runs alone, before them).
func eachFramework(t *testing.T, parallel bool, f func(t *testing.T, name string)) {
	if parallel {
		t.Parallel()
		together.Store(true) // go test runs parallel tests once the others are done
	}
	names := make([]string, 0, len(frameworks))
	for n := range frameworks {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if parallel {
				t.Parallel()
			}
			f(t, name)
		})
	}
}
