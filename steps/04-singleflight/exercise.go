//go:build !solution

package main

import (
	"context"

	"golang.org/x/sync/singleflight"
)

// Group coalesces concurrent loads of the same key.
type Group struct {
	flights singleflight.Group
}

// Load runs load once for all concurrent callers of key and gives each the
// result.
//
// TODO(step 4): share one in-flight load per key (g.flights.DoChan), and
// mind the Go pitfalls that the article's warning (don't add an await
// where the promise is stored) becomes here:
//   - run the load on a context detached from the first caller
//     (context.WithoutCancel, plus a timeout): one client hanging up must
//     not fail the others;
//   - wait with select on the result channel and the caller's own ctx;
//   - recover a panic in load and return it as an error;
//   - never keep an error: the next call must load again.
//
// Until then every concurrent miss runs its own query, as in step 2.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	return load(ctx)
}
