// Package invalidate is the reference for step 10: when one replica changes
// an item, every replica drops its in-process copy at once, through Redis
// pub/sub. Without it a replica keeps serving the old item until its burst
// TTL runs out: the delay article A accepts for its burst tier
// ("chấp nhận invalidate trễ vài s": invalidation a few seconds late).
//
// Why pub/sub and not Redis's client-side caching (CLIENT TRACKING): the
// memory tier here is otter, filled through step 4's flight, and tracking
// would have to learn every key this process read (a tracking table in
// Redis, an invalidation per key read) to tell us about the few that
// change. With pub/sub the writer says what changed, once, to everyone.
// Neither is reliable: a replica whose connection drops misses what was
// published meanwhile (pub/sub keeps nothing). That is why the memory tier
// keeps its TTL: a missed message costs at most one burst TTL of staleness,
// as before the exercise.
package invalidate

import (
	"context"
	"fmt"
	"strconv"

	"github.com/peakload/workshop/internal/given/replica"
)

// Change writes the item, then tells every replica — this one too, it is
// subscribed like the others — to forget it. The order matters: published
// before the write, a replica could reload the old row between its forget
// and the commit and keep it a whole TTL. It returns once Redis has taken
// the announcement: the 200 the client then reads means "changed, and
// every listening replica told", and every message published after it
// reaches each replica behind this one.
func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	if err := r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err(); err != nil {
		// The row is committed and Redis's copy deleted, but the replicas
		// keep their copy up to the burst TTL: not the 200's promise. Say
		// so, as r.Write does when its DEL fails after the commit.
		return fmt.Errorf("item %d changed, but announcing it failed (replicas stay stale up to the burst TTL): %w", id, err)
	}
	return nil
}

// Listen forgets every item announced on replica.Channel until ctx ends,
// each before it takes the next message: Redis delivers a channel's
// messages in the order they were published, so a replica that has heard
// a message has forgotten every item announced before it.
// go-redis reconnects a dropped subscription by itself; what was published
// while it was down is lost, and the TTL bounds what that costs.
func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	msgs := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m, ok := <-msgs:
			if !ok {
				return nil
			}
			id, err := strconv.ParseInt(m.Payload, 10, 32)
			if err != nil {
				continue // not ours: nothing to forget
			}
			r.Memory.Forget(int32(id))
		}
	}
}
