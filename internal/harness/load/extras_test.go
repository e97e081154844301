package load

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// Every figure declared in result.CountedPerServed is recorded from its
// counter, per request served, the route put in: a step adding one edits
// keys.go alone (issue 35).
func TestExtrasReadEveryCountedFigure(t *testing.T) {
	const route = "GET /cached/items/:id"
	after := proc.Counters{}
	for _, counter := range result.CountedPerServed {
		after[strings.ReplaceAll(counter, result.Route, route)] = 50
	}
	x := extras(proc.Counters{}, after, route, 100, proc.Work{})
	for key, counter := range result.CountedPerServed {
		if x[key] != 0.5 {
			t.Errorf("%s (counter %s rose by 50 over 100 requests): recorded %v, want 0.5", key, counter, x[key])
		}
	}
}
