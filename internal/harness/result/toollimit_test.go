package result

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestClientBoundRule(t *testing.T) {
	plan := CPUPlan{Server: []int{1}, Driver: []int{0}, Pinned: true}
	for _, c := range []struct {
		name              string
		rps, client, serv float64
		want              bool
	}{
		{"k6 saturated, server idle", 5000, 190, 60, true}, // client 95 %, server 30 %
		{"server saturated", 10000, 60, 95, false},         // client 60 %, server 95 %
		{"both saturated: the server's limit", 10000, 95, 95, false},
		{"neither (a paced poll)", 1000, 100, 100, false},
	} {
		r := Run{RPS: c.rps, ClientCPUus: c.client, PerRequest: PerRequest{ServerCPUus: c.serv}}
		FlagClientBound(&r, plan)
		if r.ClientBound != c.want {
			t.Errorf("%s: client-bound %v, want %v (client %.0f%%, server %.0f%%)", c.name, r.ClientBound, c.want, 100*r.ClientBusy(plan), 100*r.ServerBusy(plan))
		}
	}
}

// Only claims judged on rates carry the client-bound note.
func TestNoteToolLimitsSparesCountClaims(t *testing.T) {
	res := &Result{Runs: []Run{{Variant: "cache-aside", ClientBound: true}, {Variant: "direct-db"}},
		Claims: []Claim{
			{ID: "A2", Tolerance: "cache-aside ≥ 5× direct-db req/s, same run"},
			{ID: "A1", Tolerance: "DB queries/request in [0.95, 1.05] and direct-db ≤ 0.5× the GET /empty ceiling"},
			{ID: "A3", Tolerance: "response bodies/request of cache-aside ÷ etag between 3.5 and 4.5"},
			{ID: "A4", Tolerance: "singleflight ≤ 1.5 DB queries per key expiry, and cache-aside ≥ 10× that (expiries = run time ÷ TTL)"},
			{ID: "B9", Tolerance: "reduce cuts DB writes per request ≥ 10× against bulk, on the hot-skewed ids"},
		}}
	NoteToolLimits(res)
	want := map[string]bool{"A2": true, "A1": true}
	for _, c := range res.Claims {
		if got := len(c.ClientBound) > 0; got != want[c.ID] {
			t.Errorf("%s: client-bound note %v, want %v", c.ID, got, want[c.ID])
		}
	}
}

// The READMEs state the client-bound rule with the numbers the code uses
// (k6's also the shared-CPU note's).
func TestReadmesStateTheClientBoundRule(t *testing.T) {
	if b, err := os.ReadFile("../../../k6/README.md"); err != nil || !strings.Contains(string(b), fmt.Sprintf("≥ %.0f %% of its CPUs shared", 100*SharedCPUShare)) {
		t.Errorf("k6/README.md does not state the shared-CPU note's %.0f %% (%v)", 100*SharedCPUShare, err)
	}
	if b, _ := os.ReadFile("../../../k6/README.md"); !strings.Contains(string(b), fmt.Sprintf("from ≥ %.0f %%", 100*SharedCPULimit)) {
		t.Errorf("k6/README.md does not state from which share (%.0f %%) a rate claim is not judged", 100*SharedCPULimit)
	}
	for _, f := range []string{"../../../README.md", "../../../k6/README.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{fmt.Sprintf("≥ %.0f %%", 100*ClientBusyLimit), fmt.Sprintf("< %.0f %%", 100*ServerIdleLimit)} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s does not state the client-bound rule's %q", f, want)
			}
		}
	}
}
