package scenario

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

// A Go counter row counts at MongoDB, not by the server's word: a server
// that acknowledges every increment but writes only two in three (a
// reducer that forgets some, or a store that loses racing $incs, as
// FerretDB does) is measured as step 7's bench measures it, and its row
// says exactly how many acknowledged increments MongoDB does not hold; the
// claim and the note say so too. One user, so no two $inc race: the
// count is exact on FerretDB as on mongod.
func TestGoCounterRowsCountAcknowledgedButLostIncrements(t *testing.T) {
	store := mongotest.Store(t)
	name := fmt.Sprintf("test_lost_%d", time.Now().UnixNano())
	coll := store.Counters().Variant(name)
	t.Cleanup(func() { _ = coll.Coll.Drop(context.Background()) })
	if err := coll.IncOne(t.Context(), "likes-1", 5); err != nil { // the row counts the increase, not what was there
		t.Fatal(err)
	}
	var calls, written atomic.Int64
	write := func(ctx context.Context, doc bson.D) error {
		if calls.Add(1)%3 != 0 {
			if err := coll.IncOne(ctx, counters.IDOf(doc), 1); err != nil {
				return err
			}
			written.Add(1)
		}
		metrics.EventsPersisted.Inc() // acknowledged, written or not
		return nil
	}
	srv := server.New("lost increments")
	srv.POST("/counters/"+name+"/:id", counters.Accept(write, http.StatusCreated))
	ts := httptest.NewServer(srv)
	defer ts.Close()

	env := Env{Params: params.Load(), Mongo: store}
	v := counterVariant(env, course.Variant(name), "/counters/"+name+"/:id")
	r, err := load.Measure(t.Context(), load.Options{Target: ts.URL, VUs: 1, Iterations: 30}, v, result.CPUPlan{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ack, per, lost := r.Extra[result.Acknowledged], r.Extra[result.Persisted], r.Extra[result.LostAcknowledged]
	// The driver may send a request or two past Iterations: the server's
	// own tally (calls) is what it acknowledged.
	n, w := float64(calls.Load()), float64(written.Load())
	if ack != n || per != w || lost != n-w || lost < 10 {
		t.Fatalf("%.0f acknowledged, %.0f written: the row reads acknowledged %.0f, persisted %.0f, lost %.0f; want %.0f, %.0f, %.0f", n, w, ack, per, lost, n, w, n-w)
	}

	res := &result.Result{Machine: result.Machine{Mongo: "FerretDB 1.24 on PostgreSQL"}}
	for _, m := range counterModes {
		x := r
		x.Variant = m
		if m != course.Sync { // the measured row is sync's; the others kept everything
			x.Extra = map[result.Key]float64{result.Acknowledged: ack, result.Persisted: ack}
		}
		res.Runs = append(res.Runs, x)
	}
	c := persistedClaim(res)
	if c.Reproduced == nil || *c.Reproduced || !strings.Contains(c.Measured, fmt.Sprintf("sync %.0f of %.0f (lost %.0f)", w, n, n-w)) || !strings.Contains(c.Measured, "FerretDB") {
		t.Errorf("B9-persisted with sync's %.0f lost: %v (%s), want NOT reproduced, naming them and FerretDB", n-w, c.Reproduced, c.Measured)
	}
	lostNotes(res)
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], fmt.Sprintf("sync: lost %.0f acknowledged increments", n-w)) {
		t.Errorf("the notes %q do not say sync lost %.0f acknowledged increments", res.Notes, n-w)
	} else if vi := messages.Vietnamese.Restate(res.Notes[0]); !strings.Contains(vi, fmt.Sprintf("sync: mất %.0f lần cộng đã được xác nhận", n-w)) {
		t.Errorf("the note in Vietnamese reads %q", vi)
	}
}
