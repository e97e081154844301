// Package coalesce is the reference for step 4 (article A4): when a hot key
// expires, every request in flight for it misses at once and each would run
// the same query — a stampede. Keeping one in-flight load per key and
// making the others wait for it turns N queries into 1.
package coalesce

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/singleflight"
)

// loadTimeout bounds a shared load: it no longer belongs to one client.
const loadTimeout = 5 * time.Second

// Group coalesces concurrent loads of the same key.
type Group struct {
	flights singleflight.Group
}

// Load runs load once for all concurrent callers of key and gives each the
// result. Three Go pitfalls are handled here:
//   - the load runs on a context detached from the first caller's
//     (context.WithoutCancel), so one client hanging up cannot fail the
//     request of everyone waiting with it;
//   - each caller waits with its own ctx (DoChan + select), so a client that
//     gives up returns at once while the load goes on for the others;
//   - a panic in load becomes an error for every waiter: singleflight would
//     re-panic it in a new goroutine for DoChan callers and crash the server.
//
// Errors are not cached: the next call after a failed load loads again.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	ch := g.flights.DoChan(key, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
		defer cancel()
		return safely(lctx, load)
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.([]byte), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func safely(ctx context.Context, load func(context.Context) ([]byte, error)) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(ctx)
}
