package crashtest

import (
	"fmt"
	"sync"
	"testing"
)

// AtOnce runs rounds of callers goroutines released together, each calling
// call(round, i), which says what it got wrong ("" when its answer was
// right); the first wrong answer fails the test, naming its round, then
// want. Many goroutines in the same code at once is how a map shared
// without a lock crashes: run the test through Isolated.
func AtOnce(t testing.TB, rounds, callers int, want string, call func(round, i int) string) {
	t.Helper()
	for round := range rounds {
		start := make(chan struct{})
		var wg sync.WaitGroup
		wrong := make(chan string, callers)
		for i := range callers {
			wg.Go(func() {
				<-start
				if w := call(round, i); w != "" {
					wrong <- w
				}
			})
		}
		close(start)
		wg.Wait()
		close(wrong)
		for w := range wrong {
			t.Fatalf("round %d: %s; %s", round, w, want)
		}
	}
}

// Wrong is what a caller of AtOnce got wrong: the call and what it
// returned, or "" when got is want and err is nil.
func Wrong(call string, got []byte, err error, want string) string {
	if err == nil && string(got) == want {
		return ""
	}
	return fmt.Sprintf("%s = %q, %v", call, got, err)
}
