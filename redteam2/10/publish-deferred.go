// WRONG: the publish is deferred at the top of Change so it "always" happens: it also announces an item whose write failed or that does not exist

//go:build !solution

package main

import (
	"context"
	"strconv"

	"github.com/peakload/workshop/internal/given/replica"
)

// Change writes the item; whatever happens, every replica hears of it.
func Change(ctx context.Context, r *replica.Replica, id int32) error {
	defer r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id)))
	return r.Write(ctx, id)
}

// Listen forgets every item announced, until ctx ends.
func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-ch:
			id, err := strconv.ParseInt(m.Payload, 10, 32)
			if err != nil {
				continue
			}
			r.Memory.Forget(int32(id))
		}
	}
}
