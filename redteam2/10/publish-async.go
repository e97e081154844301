// WRONG: the publish is sent from a goroutine so the client does not wait for it, on the request's ctx: the handler returns, ctx is cancelled, and the announcement is often lost

//go:build !solution

package main

import (
	"context"
	"strconv"

	"github.com/peakload/workshop/internal/given/replica"
)

// Change writes the item, then announces it to every replica.
func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	go r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))) // do not make the client wait
	return nil
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
