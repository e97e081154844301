package main

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// bigItem is a fresh 1 KiB value for id, each time: the cache's memory is
// then mostly its items, whether it keeps the slice or a copy of it.
func bigItem(id int32) []byte {
	b := make([]byte, itemSize)
	copy(b, itemHead(id))
	return b
}

const itemSize = 1 << 10

func itemHead(id int32) string { return fmt.Sprintf("item %d ", id) }

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// A crawler reads the whole catalogue: the tier must hold at most about
// MaxItems items, or the process grows until it is killed. Measured twice,
// neither through the loader's slices (a cache that copies them must be
// bounded too): the heap the cache holds after a GC, and how many of the
// ids read are still served without a call to next.
func TestMemoryIsBounded(t *testing.T) {
	guarded(t, func() {
		memory := New(time.Minute)
		ctx := context.Background()
		const n, size = 2 * MaxItems, itemSize
		loads := 0
		next := func(_ context.Context, id int32) ([]byte, error) { loads++; return bigItem(id), nil }
		read := func(id int32) {
			t.Helper()
			if b, err := get(ctx, memory, id, next); err != nil || len(b) != size || !bytes.HasPrefix(b, []byte(itemHead(id))) {
				t.Fatalf("Get(%d) returned %d bytes, %v; want that id's own %d-byte item", id, len(b), err, size)
			}
		}
		base := heapInUse()
		for i := range int32(n) {
			read(i + 1)
		}
		held := int64(heapInUse()) - int64(base)
		runtime.KeepAlive(memory) // the cache itself must outlive the count
		const mib = 1 << 20
		if limit := int64(3 * MaxItems * size / 2); held > limit {
			t.Fatalf("after reading %d different items of %d KiB, the heap holds %.0f MiB more than before (all of them: %.0f MiB); "+
				"want at most about MaxItems' worth (%d items, %.0f MiB): bound the cache (otter's MaximumSize)",
				n, size>>10, float64(held)/mib, float64(n*size)/mib, MaxItems, float64(MaxItems*size)/mib)
		}
		loads = 0
		for i := range int32(n) {
			read(i + 1)
		}
		if still := n - loads; still > MaxItems+MaxItems/20 {
			t.Fatalf("after reading %d different items, reading them all again found %d still in memory (no call to next); "+
				"want at most about MaxItems (%d): bound the cache (otter's MaximumSize)", n, still, MaxItems)
		}
	})
}

// Once full, the cache makes room for new ids (it evicts), rather than
// serving every new id from the next tier for ever.
func TestAFullCacheKeepsCachingNewIds(t *testing.T) {
	guarded(t, func() {
		memory, tr := New(time.Minute), newTier()
		ctx := context.Background()
		for i := range int32(2 * MaxItems) {
			if b, err := get(ctx, memory, i+1, tr.get); err != nil || string(b) != item(i+1, 1) {
				t.Fatalf("Get(%d) = %q, %v; want %q", i+1, b, err, item(i+1, 1))
			}
		}
		const fresh = 100
		twice := 0
		for i := range int32(fresh) {
			id := 1_000_000 + i
			for range 2 {
				if b, err := get(ctx, memory, id, tr.get); err != nil || string(b) != item(id, tr.count(id)) {
					t.Fatalf("Get(%d) = %q, %v; want %q", id, b, err, item(id, tr.count(id)))
				}
			}
			if tr.count(id) > 1 {
				twice++
			}
		}
		if twice > 0 {
			t.Fatalf("with the cache full (%d different ids read), %d of %d new ids, each read twice in a row, were loaded twice; "+
				"want each loaded once: a full cache evicts to keep caching, it does not stop", 2*MaxItems, twice, fresh)
		}
	})
}

// The bound is a number of items, and the memory tier is there to hold the
// hot set: ids read once, fewer than MaxItems of them, are still served
// from memory when read again. A bound measured in something else (bytes,
// a fraction of MaxItems) would keep a handful of them and send the rest of
// the hot set to Redis, which the checks above, watching only the upper
// bound, cannot see.
func TestAWorkingSetWithinMaxItemsStaysInMemory(t *testing.T) {
	guarded(t, func() {
		memory := New(time.Hour)
		ctx := context.Background()
		loads := map[int32]int{}
		next := func(_ context.Context, id int32) ([]byte, error) {
			loads[id]++ // one goroutine: no lock needed
			return bigItem(id), nil
		}
		const n = MaxItems / 2
		for round := range 2 {
			for id := range int32(n) {
				if b, err := get(ctx, memory, id+1, next); err != nil || !bytes.HasPrefix(b, []byte(itemHead(id+1))) {
					t.Fatalf("round %d: Get(%d) = %d bytes %.12q, %v; want its item", round+1, id+1, len(b), b, err)
				}
			}
		}
		again := 0
		for _, l := range loads {
			if l > 1 {
				again++
			}
		}
		if again > n/20 {
			t.Fatalf("%d ids of %d KiB each, half of MaxItems (%d), read once and then again, well within the TTL: "+
				"%d of them were loaded again, want (nearly) none: a working set smaller than MaxItems must fit; "+
				"bound the cache by MaxItems entries (otter's MaximumSize), not by bytes or a fraction of it", n, itemSize>>10, MaxItems, again)
		}
	})
}
