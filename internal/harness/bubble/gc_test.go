package bubble

import (
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// sink keeps each allocation from being optimised away.
var sink []byte

// A goroutine that only allocates never waits for anything the program
// does, yet a collection it starts parks it on the runtime's semaphores
// ("semacquire") while another goroutine stops the world, as the stack
// dumps of Settled and Locked do. Neither may take that for a wait: a
// check that did would judge code that is still running (a right answer
// failed CI so, one run in many).
func TestACollectionStartingIsNoWait(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	stop := make(chan struct{})
	var alloc sync.WaitGroup
	alloc.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				sink = make([]byte, 64<<10)
			}
		}
	})
	fooled := 0
	for range 5000 {
		if Settled("") {
			fooled++
		}
	}
	close(stop)
	alloc.Wait()
	if fooled > 0 {
		t.Errorf("Settled said every goroutine waits %d times of 5000, while one only allocated", fooled)
	}

	fooled = 0
	var bubbled sync.WaitGroup
	var done atomic.Bool
	bubbled.Go(func() {
		synctest.Test(t, func(t *testing.T) {
			for !done.Load() {
				sink = make([]byte, 64<<10)
			}
		})
	})
	for range 5000 {
		if Locked() {
			fooled++
		}
	}
	done.Store(true)
	bubbled.Wait()
	if fooled > 0 {
		t.Errorf("Locked said a bubble can never move %d times of 5000, while its goroutine only allocated", fooled)
	}
}
