// Package afastify_test checks article A's own server
// (originals/a-fastify/server.js) against the real services: the same
// bodies as the Go step servers, and each technique by what reaches
// PostgreSQL and Redis, counted at their door (wire_test.go).
package afastify_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// server is the running original and the two wires it reaches the services by.
type server struct {
	url       string
	pg, redis *wire
	child     *proc.Child
}

// ids far from the bench's hot ones, so no other test's traffic touches
// their Redis keys while this one counts.
const firstID = 99_901

// start runs the original with both services behind counting wires and
// TTLs long enough that nothing expires during the test.
func start(t *testing.T) *server {
	t.Helper()
	root, err := original.Root()
	if err != nil {
		t.Fatal(err)
	}
	bin, args, err := original.Program{Runtime: original.Node, Script: "a-fastify/server.js"}.Command(root)
	if errors.Is(err, original.ErrMissing) {
		t.Skipf("%v (make prefetch-originals installs the packages)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	stacktest.Postgres(t)
	stacktest.Redis(t)
	ep := stacktest.Endpoints(t)
	pgURL, err := url.Parse(ep.PostgresURL)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{pg: newWire(t, pgURL.Host, postgres), redis: newWire(t, ep.RedisAddr, redisRESP)}
	pgURL.Host = s.pg.Addr
	port, err := proc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(cmd.Environ(), "PEAKLOAD_ADDR="+addr, "PEAKLOAD_POSTGRES_URL="+pgURL.String(),
		"PEAKLOAD_REDIS_ADDR="+s.redis.Addr, "PEAKLOAD_REDIS_TTL_MS=600000", "PEAKLOAD_BURST_TTL_MS=600000")
	s.child, err = proc.StartChild("a-fastify", cmd, filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.child.Stop(10 * time.Second) })
	s.url = "http://" + addr
	if err := s.child.AwaitOK(t.Context(), s.url+"/healthz", 30*time.Second); err != nil {
		t.Fatalf("the original did not start (%v):\n%s", err, s.log())
	}
	return s
}

func (s *server) log() string {
	b, _ := exec.Command("tail", "-n", "20", s.child.LogPath).Output()
	return string(b)
}

// get requests path with optional headers; it fails t unless the status is want.
func (s *server) get(t *testing.T, path string, want int, header ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if resp.StatusCode != want {
		t.Fatalf("GET %s: %d %s, want %d", path, resp.StatusCode, body, want)
	}
	return resp
}

func bodyOf(resp *http.Response) []byte { b, _ := io.ReadAll(resp.Body); return b }

func TestOriginalArticleAOnFastify(t *testing.T) {
	s := start(t)
	store := stacktest.Store(t)
	rdb := stacktest.Redis(t)
	forget := func(id int) {
		if err := rdb.Del(t.Context(), catalog.ItemKey(int32(id))).Err(); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("every route serves the Go server's bytes", func(t *testing.T) {
		id := firstID
		want, err := store.ItemJSON(t.Context(), int32(id))
		if err != nil {
			t.Fatal(err)
		}
		forget(id)
		for _, route := range []string{routes.Items, routes.Cached, routes.ETag, routes.Coalesced, routes.Burst} {
			resp := s.get(t, routes.Path(route, id), http.StatusOK)
			if got := bodyOf(resp); !bytes.Equal(got, want) {
				t.Errorf("%s:\n got %s\nwant %s", route, got, want)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("%s: Content-Type %q", route, ct)
			}
		}
	})

	t.Run("A1: one statement per direct read", func(t *testing.T) {
		before := s.pg.count("statement")
		for i := range 5 {
			s.get(t, routes.Path(routes.Items, firstID+i), http.StatusOK)
		}
		if got := s.pg.count("statement") - before; got != 5 {
			t.Errorf("5 direct reads ran %d statements at PostgreSQL, want 5", got)
		}
	})

	t.Run("A2: a hit makes no statement", func(t *testing.T) {
		id := firstID + 10
		forget(id)
		pg, set := s.pg.count("statement"), s.redis.count("set")
		s.get(t, routes.Path(routes.Cached, id), http.StatusOK)
		if got := s.pg.count("statement") - pg; got != 1 {
			t.Errorf("the miss ran %d statements, want 1", got)
		}
		if got := s.redis.count("set") - set; got != 1 {
			t.Errorf("the miss sent %d SETs, want 1", got)
		}
		pg, get := s.pg.count("statement"), s.redis.count("get")
		for range 5 {
			s.get(t, routes.Path(routes.Cached, id), http.StatusOK)
		}
		if got := s.pg.count("statement") - pg; got != 0 {
			t.Errorf("5 hits ran %d statements, want 0", got)
		}
		if got := s.redis.count("get") - get; got != 5 {
			t.Errorf("5 hits sent %d GETs, want 5", got)
		}
		if ttl := rdb.PTTL(t.Context(), catalog.ItemKey(int32(id))).Val(); ttl <= 0 || ttl > 600*time.Second {
			t.Errorf("the key's TTL is %s, want PEAKLOAD_REDIS_TTL_MS (600 s)", ttl)
		}
	})

	t.Run("A3: a matching weak ETag gets 304 and no body", func(t *testing.T) {
		path := routes.Path(routes.ETag, firstID+20)
		tag := s.get(t, path, http.StatusOK).Header.Get("ETag")
		if !strings.HasPrefix(tag, `W/"`) {
			t.Fatalf("ETag %q, want a weak one (W/\"…\")", tag)
		}
		if b := bodyOf(s.get(t, path, http.StatusNotModified, "If-None-Match", tag)); len(b) != 0 {
			t.Errorf("the 304 carried %d bytes of body", len(b))
		}
		s.get(t, path, http.StatusOK, "If-None-Match", `W/"stale"`)
		if s.get(t, routes.Path(routes.Cached, firstID+20), http.StatusOK).Header.Get("ETag") != "" {
			t.Error("/cached has an ETag: only the etag route may (it is step 3's before)")
		}
	})

	t.Run("A4: concurrent misses make one statement", func(t *testing.T) {
		const n = 200
		id := firstID + 30
		forget(id)
		pg := s.pg.count("statement")
		var wg sync.WaitGroup
		bodies := make([][]byte, n)
		for i := range n {
			wg.Go(func() { bodies[i] = bodyOf(s.get(t, routes.Path(routes.Coalesced, id), http.StatusOK)) })
		}
		wg.Wait()
		if got := s.pg.count("statement") - pg; got != 1 {
			t.Errorf("%d concurrent requests for one missing key ran %d statements, want 1", n, got)
		}
		for i, b := range bodies {
			if !bytes.Equal(b, bodies[0]) {
				t.Fatalf("request %d got another body than request 0", i)
			}
		}
	})

	t.Run("A5: a burst hit makes no Redis command", func(t *testing.T) {
		id := firstID + 40
		forget(id)
		s.get(t, routes.Path(routes.Burst, id), http.StatusOK)
		gets, bytesIn := s.redis.count("get"), s.redis.readBytes()
		for range 5 {
			s.get(t, routes.Path(routes.Burst, id), http.StatusOK)
		}
		if got := s.redis.count("get") - gets; got != 0 {
			t.Errorf("5 reads within the burst TTL sent %d GETs to Redis, want 0", got)
		}
		if got := s.redis.readBytes() - bytesIn; got != 0 {
			t.Errorf("5 reads within the burst TTL read %d bytes from Redis, want 0", got)
		}
	})

	// Bad input is answered as Fastify answers it, measured here: the
	// route's schema (an integer ≥ 1 that fits in 32 bits) gives its
	// validation 400, with the coercion of Fastify's Ajv ("1.0" is 1); an
	// unknown item and an unknown route get its 404.
	t.Run("bad input", func(t *testing.T) {
		for path, want := range map[string]string{
			"/items/abc":        `"code":"FST_ERR_VALIDATION"`,
			"/items/0":          `"message":"params/id must be >= 1"`,
			"/items/2147483648": `"message":"params/id must be <= 2147483647"`,
		} {
			if b := bodyOf(s.get(t, path, http.StatusBadRequest)); !strings.Contains(string(b), want) {
				t.Errorf("%s: %s, want %s", path, b, want)
			}
		}
		s.get(t, "/items/1.0", http.StatusOK)
		if b := bodyOf(s.get(t, "/items/99999999", http.StatusNotFound)); !strings.Contains(string(b), `"message":"item 99999999: not found"`) {
			t.Errorf("unknown item: %s", b)
		}
		s.get(t, "/nowhere", http.StatusNotFound)
		if got := s.get(t, "/empty", http.StatusOK); len(bodyOf(got)) < 1000 {
			t.Error("GET /empty is not an item-sized body")
		}
	})

	t.Run("SIGTERM stops it cleanly", func(t *testing.T) {
		if killed := s.child.Stop(10 * time.Second); killed {
			t.Fatalf("ignored SIGTERM for 10 s:\n%s", s.log())
		}
		if err := s.child.Err(); err != nil {
			t.Fatalf("exited with %v:\n%s", err, s.log())
		}
		if !strings.Contains(s.log(), "stopped cleanly") {
			t.Errorf("the log does not say it stopped cleanly:\n%s", s.log())
		}
	})
}
