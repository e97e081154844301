package scenario

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// Article D's originals (ORIGINAL=1), each run as the bench runs it, against
// the real PostgreSQL through a proxy that counts what the original sends:
// the same three endpoints as the Go frameworks, the same item JSON, bad
// input answered as its framework answers it, no statement on the cheap
// routes and one per item read, no more connections than step 9's pool,
// and a shutdown on SIGTERM that closes them all and exits 0.
func TestOriginalArticleDServesStep9(t *testing.T) {
	p := params.Load()
	root, err := original.Root()
	if err != nil {
		t.Fatal(err)
	}
	store := stacktest.Store(t) // the Go servers' reads, to compare with
	for _, stack := range course.OriginalFrameworks {
		t.Run(stack, func(t *testing.T) {
			prog := step9Original(stack, p)
			bin, args, err := prog.Command(root)
			if errors.Is(err, original.ErrMissing) {
				t.Skipf("%v (make prefetch-originals installs them)", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			pg := countPostgres(t, stacktest.Endpoints(t).PostgresURL)
			env := append([]string{"PEAKLOAD_POSTGRES_URL=" + pg.url}, prog.Env...)
			srv, err := proc.StartProgram(t.Context(), bin, args, env, result.CPUPlan{}, filepath.Join(t.TempDir(), stack+".log"))
			if err != nil {
				t.Fatalf("%s: %v", prog, err)
			}
			t.Cleanup(func() { _ = srv.Stop() })

			before := pg.statements.Load()
			status, body := callBytes(t, "GET", srv.Target+"/empty", "")
			if status != 200 || len(body) != len(catalog.SampleJSON()) || !json.Valid(body) {
				t.Errorf("GET /empty: %d, %d bytes; want 200 and JSON as long as the Go servers' (%d bytes)", status, len(body), len(catalog.SampleJSON()))
			}
			if status, body = callBytes(t, "POST", srv.Target+"/validate", string(p.Event)); status != 200 || string(body) != `{"ok":true}` {
				t.Errorf("POST /validate with a valid event: %d %s, want 200 {\"ok\":true}", status, body)
			}
			badInput(t, stack, srv.Target)
			if n := pg.statements.Load() - before; n != 0 {
				t.Errorf("the empty and validate routes sent PostgreSQL %d statements, want 0", n)
			}

			const reads = 40
			before = pg.statements.Load()
			var wg sync.WaitGroup
			for id := 1; id <= reads; id++ { // at once: more requests than the pool has connections
				wg.Go(func() { sameItem(t, store, srv.Target, int32(id)) })
			}
			wg.Wait()
			if n := pg.statements.Load() - before; n != reads {
				t.Errorf("%d item reads sent PostgreSQL %d statements, want one each", reads, n)
			}
			if n := pg.conns.Load(); n < 1 || n > int64(p.Frameworks.Pool) {
				t.Errorf("%d connections to PostgreSQL, want 1..%d (PG_POOL, step 9's pool)", n, p.Frameworks.Pool)
			}
			if status, _ := callBytes(t, "GET", srv.Target+"/items/999999999", ""); status != 404 {
				t.Errorf("GET /items/999999999: %d, want 404", status)
			}
			if status, _ := callBytes(t, "GET", srv.Target+"/items/abc", ""); status != 400 {
				t.Errorf("GET /items/abc: %d, want 400", status)
			}

			if err := srv.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if err := srv.Wait(30 * time.Second); err != nil {
				t.Errorf("after SIGTERM: %v", err)
			}
			if !pg.allTerminated(10 * time.Second) {
				t.Errorf("after SIGTERM: %d of %d PostgreSQL connections closed with Terminate, want all (pool.end())", pg.terminated.Load(), pg.conns.Load())
			}
		})
	}
}

// badInput: what each framework answers on its own (measured: Express's
// body parser and error page, Elysia's schema), and what both refuse alike.
func badInput(t *testing.T, stack, target string) {
	t.Helper()
	schema := map[string]int{course.Express: 400, course.Elysia: 422}[stack] // Elysia's validation error
	for _, tc := range []struct {
		what, body string
		want       int
	}{
		{"malformed JSON", `{"event_name":"click",`, 400},
		{"an unknown field", `{"event_name":"click","data":{},"timestamp":1632404556,"user":1}`, schema},
		{"data not an object", `{"event_name":"click","data":[1],"timestamp":1632404556}`, schema},
		{"no event_name", `{"data":{},"timestamp":1632404556}`, schema},
		{"a name with a space", `{"event_name":"no spaces","data":{},"timestamp":1632404556}`, schema},
		{"milliseconds for seconds", `{"event_name":"click","data":{},"timestamp":1632404556000}`, schema},
		{"a body over 64 KiB", `{"event_name":"click","data":{"x":"` + strings.Repeat("y", 70<<10) + `"},"timestamp":1632404556}`, 413},
	} {
		if status, body := callBytes(t, "POST", target+"/validate", tc.body); status != tc.want {
			t.Errorf("POST /validate with %s: %d %.120s, want %d", tc.what, status, body, tc.want)
		}
	}
}

// sameItem: the original's GET /items/:id is the Go servers' item, field
// for field (decoded: Go and JavaScript escape and write times alike, but
// not byte for byte).
func sameItem(t *testing.T, store *catalog.Store, target string, id int32) {
	status, body := callBytes(t, "GET", fmt.Sprintf("%s/items/%d", target, id), "")
	var got, want catalog.Item
	if status != 200 || json.Unmarshal(body, &got) != nil {
		t.Errorf("GET /items/%d: %d %.120s, want 200 and an item", id, status, body)
		return
	}
	goBody, err := store.ItemJSON(t.Context(), id)
	if err != nil || json.Unmarshal(goBody, &want) != nil {
		t.Errorf("item %d through Go: %v", id, err)
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GET /items/%d differs from the Go servers':\n got %s\nwant %s", id, body, goBody)
	}
}

func callBytes(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return 0, nil
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)) {
		// Answered (413) and closed before the body was all written: Go's
		// client reports the cut write. Read the answer while writing.
		res, err = answerWhileWriting(req, body)
	}
	if err != nil {
		t.Errorf("%s %s: %v", method, url, err)
		return 0, nil
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// pgCounter is a TCP proxy in front of PostgreSQL that reads the frontend
// protocol the original sends: connections, statements run (Execute, or
// a simple Query) and Terminate messages. Exact, and no other test's
// traffic is in it, as it would be in pg_stat_database.
type pgCounter struct {
	url                           string
	conns, statements, terminated atomic.Int64
}

func countPostgres(t *testing.T, pgURL string) *pgCounter {
	t.Helper()
	u, err := url.Parse(pgURL)
	if err != nil {
		t.Fatal(err)
	}
	c := &pgCounter{}
	u.Host = stacktest.Proxy(t, u.Host, func(client, server net.Conn) {
		c.conns.Add(1)
		go func() { _, _ = io.Copy(client, server); client.Close() }()
		go func() { c.read(client, server); server.Close() }()
	})
	c.url = u.String()
	return c
}

// allTerminated waits until every connection sent Terminate: the proxy
// reads what the exited process wrote a moment after it exited. The bound
// is a watchdog, not a timing: a quiet machine gets there at once.
func (c *pgCounter) allTerminated(watchdog time.Duration) bool {
	for deadline := time.Now().Add(watchdog); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if c.terminated.Load() == c.conns.Load() {
			return true
		}
	}
	return false
}

// read forwards what the client sends, counting its messages: the startup
// message (length first, no type), then type byte + length + payload.
func (c *pgCounter) read(client, server net.Conn) {
	r := bufio.NewReader(client)
	var head [5]byte
	if _, err := io.ReadFull(r, head[1:]); err != nil {
		return
	}
	if !forward(server, r, head[1:], binary.BigEndian.Uint32(head[1:])-4) {
		return
	}
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		switch head[0] {
		case 'E', 'Q':
			c.statements.Add(1)
		case 'X':
			c.terminated.Add(1)
		}
		if !forward(server, r, head[:], binary.BigEndian.Uint32(head[1:])-4) {
			return
		}
	}
}

func forward(dst io.Writer, r io.Reader, head []byte, n uint32) bool {
	_, err := io.Copy(dst, io.MultiReader(bytes.NewReader(head), io.LimitReader(r, int64(n))))
	return err == nil
}

// answerWhileWriting sends req again on a connection of its own, its body
// written by another goroutine, and reads the answer as soon as it comes.
func answerWhileWriting(req *http.Request, body string) (*http.Response, error) {
	conn, err := net.DialTimeout("tcp", req.URL.Host, 10*time.Second)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	again := req.Clone(req.Context())
	again.Body = io.NopCloser(strings.NewReader(body))
	go func() { _ = again.Write(conn) }() // the server may cut it: that is the point
	res, err := http.ReadResponse(bufio.NewReader(conn), again)
	if err != nil {
		conn.Close()
		return nil, err
	}
	b, _ := io.ReadAll(res.Body)
	conn.Close()
	res.Body = io.NopCloser(bytes.NewReader(b))
	return res, nil
}
