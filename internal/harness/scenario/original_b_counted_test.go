package scenario

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/servicestats"
	"github.com/peakload/workshop/internal/harness/stacktest"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

// startExpressCounted starts article B's Express on a collection of the
// test's own and returns it with the bench's reading of its counters
// (servicestats), the events counted on that collection.
func startExpressCounted(t *testing.T) (*proc.Proc, func(context.Context) (proc.Counters, error)) {
	t.Helper()
	stacktest.SkipShort(t, "article B's Express and MongoDB")
	store := mongotest.Store(t) // the test's own collection, not the bench's
	root, err := original.Root()
	var bin string
	var args []string
	if err == nil {
		bin, args, err = bStacks[0].server.Command(root)
	}
	if errors.Is(err, original.ErrMissing) {
		t.Skipf("%v (make prefetch-originals)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	eps := stacktest.Endpoints(t)
	srv, err := proc.StartProgram(t.Context(), bin, args, append(eps.Env(), "PEAKLOAD_EVENTS="+store.Events.Name()),
		result.CPUPlan{}, filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatalf("Express did not start: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	stats, err := servicestats.Open(t.Context(), srv.Pid(), eps, servicestats.Uses{Mongo: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stats.Close)
	counters := func(ctx context.Context) (proc.Counters, error) { // the bench's reading, on the test's collection
		c, err := stats.Read(ctx)
		if err != nil {
			return c, err
		}
		n, err := store.Events.CountDocuments(ctx, bson.D{})
		c["peakload_events_persisted_total"] = float64(n)
		return c, err
	}
	return srv, counters
}

// Express's bulk row is measured as step 6's bench measures it (ORIGINAL=1):
// the server exports no counters, so its round trips are MongoDB's count of
// inserts (serverStatus) over the requests the driver got an answer for.
// B8-batch-express then reads a figure and a verdict, not "not measured".
func TestExpressBulkRoundTripsCountedAtMongo(t *testing.T) {
	srv, counters := startExpressCounted(t)
	v := httpWrites(Env{Params: params.Load()})[4]
	if v.Name != course.Bulk {
		t.Fatalf("httpWrites' fifth row is %s, want bulk", v.Name)
	}
	v.Name = course.On(course.Express, course.Bulk)
	o := load.Options{Target: srv.Target, VUs: 20, Iterations: 3000, Counters: counters}
	r, err := load.Measure(t.Context(), o, v, result.CPUPlan{}, t.TempDir())
	if err != nil {
		t.Fatalf("%v\n%s", err, srv.Log(10))
	}
	r.CountedAt = "services"
	// bulk.js flushes at 1000 events or each second: 3000 events are a few
	// InsertManys, far from one per event, whatever the machine's speed.
	if trips := r.Extra[result.DBRoundTripsPerReq]; trips <= 0 || trips > 0.1 {
		t.Errorf("Express bulk: %g round trips per request counted at MongoDB (extra %v), want (0, 0.1]", trips, r.Extra)
	}
	c := bStacks[0].onStack(&result.Result{Runs: []result.Run{r}}, batchClaim)
	if c.Reproduced == nil || !*c.Reproduced || !strings.Contains(c.Measured, "events per InsertMany") ||
		!strings.Contains(c.Measured, "serverStatus") || !strings.Contains(c.Vi.Measured, "serverStatus") {
		t.Errorf("B8-batch-express: %v (%s / %s), want reproduced, its figure saying where it was counted", c.Reproduced, c.Measured, c.Vi.Measured)
	}
}
