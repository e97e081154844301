package bench

import (
	"strings"
	"testing"
)

// The rows of step 1 measured here under k6 (2 CPUs: driver and databases
// on CPU 0): direct-db is neither client- nor server-bound, yet k6 took
// 28 % of the CPU PostgreSQL needed and the row served 0.64× the Go
// driver's req/s. Only such rows get the note.
func TestSharedCPUNoteNamesDatabaseRowsWithAHeavyTool(t *testing.T) {
	two := CPUPlan{Server: []int{1}, Services: []int{0}, Driver: []int{0}, Pinned: true}
	four := CPUPlan{Server: []int{3}, Services: []int{2}, Driver: []int{0, 1}, Pinned: true}
	directDB := func(tool string, clientUS float64) Run {
		return Run{Variant: "direct-db-" + tool, RPS: 1544, ClientCPUus: clientUS,
			PerRequest: PerRequest{DBQueries: 1, ServerCPUus: 113}}
	}
	empty := Run{Variant: "empty-get", RPS: 9150, ClientCPUus: 108, ClientBound: true, PerRequest: PerRequest{ServerCPUus: 39}}
	burst := Run{Variant: "burst", RPS: 59364, ClientCPUus: 14, PerRequest: PerRequest{RedisBytes: 10, ServerCPUus: 16}}
	// The same tool and server figures, but no database in the request: not named.
	noDB := directDB("k6", 181)
	noDB.Variant, noDB.PerRequest.DBQueries = "no-db-k6", 0
	runs := []Run{empty, directDB("k6", 181), directDB("go", 24), burst, noDB}

	note := SharedCPUNote(runs, two)
	if !strings.Contains(note, "direct-db-k6 (28%)") {
		t.Fatalf("note %q: want direct-db under k6 named with its (28%%)", note)
	}
	for _, not := range []string{"direct-db-go", "empty-get", "burst", "no-db-k6"} {
		if strings.Contains(note, not) {
			t.Errorf("note %q names %s: a light tool, a client-bound row, a server-bound row or a row without a database", note, not)
		}
	}
	if got := SharedCPUNote(runs, four); got != "" {
		t.Errorf("driver on CPUs of its own: note %q, want none", got)
	}
}
