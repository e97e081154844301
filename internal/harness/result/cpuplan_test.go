package result

import (
	"fmt"
	"testing"
)

func TestCPUPlans(t *testing.T) {
	for n, want := range map[int]string{
		1: "{[] [] [] false}",
		2: "{[1] [0] [0] true}",
		4: "{[3] [2] [0 1] true}",
		8: "{[7] [6] [0 1 2 3 4 5] true}",
	} {
		t.Run(fmt.Sprintf("%d CPUs", n), func(t *testing.T) {
			if got := fmt.Sprint(PlanFor(n)); got != want {
				t.Errorf("%s, want %s", got, want)
			}
		})
	}
	// Step 8's plan: the server on every CPU but the driver's (all of them on two).
	for n, want := range map[int]string{
		2: "{[0 1] [0] [0] true} 2",
		4: "{[1 2 3] [0] [0] true} 3",
		8: "{[1 2 3 4 5 6 7] [0] [0] true} 7",
	} {
		t.Run(fmt.Sprintf("wide, %d CPUs", n), func(t *testing.T) {
			if w := wideFor(n); fmt.Sprint(w, " ", w.Procs()) != want {
				t.Errorf("%v %d, want %s", w, w.Procs(), want)
			}
		})
	}
}
