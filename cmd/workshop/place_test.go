package main

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// `make step-N run` must tell k6 users the CPUs the bench's driver uses and
// keep the server's CPU out of them.
func TestRunPrintsTheLoadCommandOnTheDriverCPUs(t *testing.T) {
	step, err := scenario.Get(1)
	if err != nil {
		t.Fatal(err)
	}
	p := placement{addr: "127.0.0.1:8080", plan: result.CPUPlan{Server: []int{3}, Services: []int{2}, Driver: []int{0, 1}, Pinned: true}}
	var b strings.Builder
	p.printLoadCommands(&b, step)
	out := b.String()
	for _, want := range []string{
		"server pinned to CPU 3 with GOMAXPROCS=1",
		"taskset -c 0,1 k6 run -e BASE_URL=http://127.0.0.1:8080 k6/01-direct-db.js",
		"taskset -c 0,1 wrk -t2 -c200 -d10s http://127.0.0.1:8080/empty",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "/items/") && strings.Contains(out, "wrk") && strings.Contains(out, "wrk -t2 -c200 -d10s http://127.0.0.1:8080/items") {
		t.Errorf("wrk offered for a row that builds each request:\n%s", out)
	}
}
