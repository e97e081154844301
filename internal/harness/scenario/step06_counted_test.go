package scenario

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// A write row's accepted and persisted count the same events: the users
// start before the window's opening reading ends, so the events accepted
// meanwhile are persisted inside the count and must be accepted in it too
// (B-kept's "0 lost" and every rate of persisted rest on it). On Express
// the reading is a count at MongoDB, slow under load: here it is slowed
// on purpose, as a loaded FerretDB does.
func TestExpressWriteRowPersistsWhatItAccepted(t *testing.T) {
	srv, counters := startExpressCounted(t)
	slow := func(ctx context.Context) (proc.Counters, error) {
		time.Sleep(300 * time.Millisecond)
		return counters(ctx)
	}
	for _, v := range httpWrites(Env{Params: params.Load()})[1:] {
		v.Name = course.On(course.Express, v.Name)
		o := load.Options{Target: srv.Target, VUs: 20, Duration: time.Second, Counters: slow}
		assertPersistedAccepted(t, o, v, srv)
	}
}

// The same on the Go server, counted by its own counters: the events its
// batchers hold when the window opens are persisted after it.
func TestGoWriteRowPersistsWhatItAccepted(t *testing.T) {
	stacktest.SkipShort(t, "step 6's server and MongoDB")
	bin := filepath.Join(t.TempDir(), "step-06")
	if out, err := exec.Command("go", "build", "-tags", "solution", "-o", bin, "../../../steps/06-buffered-writes").CombinedOutput(); err != nil {
		t.Fatalf("build step 6: %v\n%s", err, out)
	}
	srv, err := proc.StartServer(t.Context(), bin, stacktest.Endpoints(t).Env(), result.CPUPlan{}, filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	for _, v := range httpWrites(Env{Params: params.Load()})[1:] {
		assertPersistedAccepted(t, load.Options{Target: srv.Target, VUs: 20, Duration: time.Second}, v, srv)
	}
}

func assertPersistedAccepted(t *testing.T, o load.Options, v load.Variant, srv *proc.Proc) {
	t.Helper()
	r, err := load.Measure(t.Context(), o, v, result.CPUPlan{}, t.TempDir())
	if err != nil {
		t.Fatalf("%s: %v\n%s", v.Name, err, srv.Log(10))
	}
	acc, per := r.Extra[result.Accepted], r.Extra[result.Persisted]
	if acc < float64(r.Requests-r.Errors) || per != acc {
		t.Errorf("%s: %.0f accepted, %.0f persisted (%d answered in the window), want persisted = accepted ≥ the window's",
			v.Name, acc, per, r.Requests-r.Errors)
	}
}
