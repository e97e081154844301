// These tests run the sources' own stacks (originals/) against
// the real services and asserts their routes by behaviour and by what the
// services counted: the rows ORIGINAL=1 measures must be the servers the
// articles describe, and keep the workshop's rules.

package original_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/stacktest"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

// bEvent is article B's payload as the bench sends it (k6/lib/params.json).
const bEvent = `{"event_name":"click","data":{"button":"subscribe"},"timestamp":1632404556}`

// bServers are article B's two servers: the same routes on two frameworks.
var bServers = map[string]string{"express": "b-express/server.js", "koa": "b-koa/server.js"}

// bCommand is script under Node, or skips t naming what to install.
func bCommand(t *testing.T, script string) (bin string, args []string) {
	t.Helper()
	root, err := original.Root()
	if err != nil {
		t.Fatal(err)
	}
	bin, args, err = original.Program{Runtime: original.Node, Script: script}.Command(root)
	if errors.Is(err, original.ErrMissing) {
		t.Skipf("%v — `make prefetch-originals` installs the originals", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin, args
}

// startB starts script on the stack's MongoDB, writing to the test's own
// collection, and stops it when t ends.
func startB(t *testing.T, script string, store *events.Store) *proc.Proc {
	t.Helper()
	bin, args := bCommand(t, script)
	env := append(stacktest.Endpoints(t).Env(), "PEAKLOAD_EVENTS="+store.Events.Name())
	srv, err := proc.StartProgram(t.Context(), bin, args, env, result.CPUPlan{}, filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatalf("%s did not start: %v", script, err)
	}
	t.Cleanup(func() {
		_ = srv.Stop()
		if t.Failed() { // what the server said is the first thing to read
			t.Logf("%s's last lines:\n%s", script, srv.Log(30))
		}
	})
	return srv
}

// eachB runs test on each of article B's servers, started on a collection
// of the test's own: the two frameworks must behave alike.
func eachB(t *testing.T, test func(t *testing.T, srv *proc.Proc, store *events.Store)) {
	for name, script := range bServers {
		t.Run(name, func(t *testing.T) {
			store := mongotest.Store(t)
			test(t, startB(t, script, store), store)
		})
	}
}

// post sends body to path n times, 20 at a time, and returns the statuses.
func post(t *testing.T, srv *proc.Proc, path, contentType, body string, n int) map[int]int {
	t.Helper()
	client := &http.Client{Timeout: 30 * time.Second} // a watchdog, not a verdict: the machine may be loaded
	var mu sync.Mutex
	var wg sync.WaitGroup
	got := map[int]int{}
	sem := make(chan struct{}, 20)
	for range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			resp, err := client.Post(srv.Target+path, contentType, strings.NewReader(body))
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				got[0]++
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			got[resp.StatusCode]++
		}()
	}
	wg.Wait()
	return got
}

func count(t *testing.T, store *events.Store) int64 {
	t.Helper()
	n, err := store.Events.CountDocuments(context.Background(), bson.D{})
	if err != nil {
		t.Fatalf("counting %s: %v", store.Events.Name(), err)
	}
	return n
}

// TestOriginalBEmptyRoutesAndBadInput: the ceilings answer and store nothing; what
// is not an event is refused as each framework's body parser refuses it
// (400 malformed JSON, 413 past 100 kB) or by our one rule (400 not an
// object), and nothing reaches the database.
func TestOriginalBEmptyRoutesAndBadInput(t *testing.T) {
	eachB(t, func(t *testing.T, srv *proc.Proc, store *events.Store) {
		resp, err := http.Get(srv.Target + "/empty")
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /empty: %v %v", resp, err)
		}
		resp.Body.Close()
		big := `{"event_name":"` + strings.Repeat("x", 101*1024) + `"}`
		for _, c := range []struct {
			path, contentType, body string
			want                    int
		}{
			{"/empty", "application/json", bEvent, http.StatusOK},
			{"/events/sync", "application/json", `{"event_name":`, http.StatusBadRequest},
			{"/events/bulk", "application/json", `[1,2]`, http.StatusBadRequest},
			{"/events/async", "application/json", big, http.StatusRequestEntityTooLarge},
		} {
			if got := post(t, srv, c.path, c.contentType, c.body, 1); got[c.want] != 1 {
				t.Errorf("POST %s %.20q: statuses %v, want one %d", c.path, c.body, got, c.want)
			}
		}
		if err := srv.Stop(); err != nil || srv.Wait(time.Second) != nil {
			t.Fatalf("SIGTERM: %v; %v", err, srv.Wait(time.Second))
		}
		if n := count(t, store); n != 0 {
			t.Errorf("the empty routes and refused bodies stored %d events, want 0", n)
		}
	})
}

// TestOriginalBSyncStoresBeforeAnswering: insert_sync awaits insertOne — every
// answered event is in the database when its answer arrives.
func TestOriginalBSyncStoresBeforeAnswering(t *testing.T) {
	eachB(t, func(t *testing.T, srv *proc.Proc, store *events.Store) {
		if got := post(t, srv, "/events/sync", "application/json", bEvent, 60); got[http.StatusOK] != 60 {
			t.Fatalf("statuses %v, want 60 × 200", got)
		}
		if n := count(t, store); n != 60 {
			t.Errorf("after 60 answered sync writes MongoDB holds %d events, want 60", n)
		}
	})
}

// TestOriginalBBufferedRoutesLoseNothingOnSIGTERM: async, group and bulk answer
// before writing; a graceful stop right after the answers must write every
// one of them (bulk's batch is far from 1000 and its second not over) and
// exit 0.
func TestOriginalBBufferedRoutesLoseNothingOnSIGTERM(t *testing.T) {
	eachB(t, func(t *testing.T, srv *proc.Proc, store *events.Store) {
		sent := map[string]int{"/events/async": 40, "/events/group": 250, "/events/bulk": 15}
		total := 0
		for path, n := range sent {
			if got := post(t, srv, path, "application/json", bEvent, n); got[http.StatusOK] != n {
				t.Fatalf("POST %s: statuses %v, want %d × 200", path, got, n)
			}
			total += n
		}
		if err := srv.Stop(); err != nil {
			t.Fatal(err)
		}
		if err := srv.Wait(time.Second); err != nil {
			t.Fatalf("after SIGTERM: %v", err)
		}
		if n := count(t, store); n != int64(total) {
			t.Errorf("accepted %d events (%v), MongoDB holds %d after the graceful stop", total, sent, n)
		}
	})
}

// TestOriginalBRawInsertCountsWhatItInserted: raw-insert.js's report is what the
// database received — whole rounds of 100, each one document per insertOne.
func TestOriginalBRawInsertCountsWhatItInserted(t *testing.T) {
	store := mongotest.Store(t)
	bin, args := bCommand(t, "b-express/raw-insert.js")
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Env = append(stacktest.Endpoints(t).Env(), "PEAKLOAD_EVENTS="+store.Events.Name(),
		"RAW_CONCURRENCY=100", "RAW_DURATION_S=0.2", "RAW_WARMUP_S=0", "RAW_EVENT="+bEvent)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("raw-insert.js: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var rep struct {
		Concurrency     int
		Inserts, Errors int64
	}
	if len(lines) != 2 || lines[0] != `{"phase":"start"}` || json.Unmarshal([]byte(lines[1]), &rep) != nil {
		t.Fatalf("raw-insert.js printed %q, want the start line then one JSON report", out)
	}
	if rep.Errors != 0 || rep.Inserts == 0 || rep.Inserts%100 != 0 {
		t.Errorf("report %+v: want whole rounds of 100 inserts, no errors", rep)
	}
	if n := count(t, store); n != rep.Inserts {
		t.Errorf("raw-insert.js reported %d inserts, MongoDB holds %d", rep.Inserts, n)
	}
}
