//go:build !solution

package main

import (
	"context"

	"github.com/peakload/workshop/internal/given/replica"
)

// Change is POST /items/:id/change on any replica: write the item, then
// make every replica forget its in-process copy.
//
// TODO(step 10): after r.Write succeeds, announce the change:
//   - r.Redis.Publish(ctx, replica.Channel, <the id in decimal>);
//   - after the write, never before: a replica that forgets too early may
//     reload the old row before it is committed, and keep it a whole TTL;
//   - this replica hears its own message too (it listens like the others);
//   - return once Redis has taken it, and return its error: the 200 the
//     client reads means "changed, and every replica told".
//
// Until then every replica, this one included, serves its old copy for
// up to the burst TTL.
func Change(ctx context.Context, r *replica.Replica, id int32) error {
	return r.Write(ctx, id)
}

// Listen runs beside the server for its whole life: it forgets every item
// another replica (or this one) announced, until ctx ends.
//
// TODO(step 10): r.Redis.Subscribe(ctx, replica.Channel), then for each
// message of its Channel(), in order: parse the id and r.Memory.Forget(id)
// before you take the next one. Return when ctx is done (close the
// subscription).
func Listen(ctx context.Context, r *replica.Replica) error {
	<-ctx.Done()
	return nil
}
