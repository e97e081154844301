// WRONG: as receive-error-returns but ending on ctx correctly (the subscription closed by context.AfterFunc): the first dropped connection still ends Listen for good — nothing restarts it

//go:build !solution

package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/peakload/workshop/internal/given/replica"
)

// Change writes the item, then announces it to every replica.
func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	return r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err()
}

// Listen forgets every item announced, until ctx ends.
func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	stop := context.AfterFunc(ctx, func() { sub.Close() }) // a blocking receive ignores ctx: closing ends it
	defer stop()
	defer sub.Close()
	for ctx.Err() == nil {
		m, err := sub.ReceiveMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("listen on %s: %w", replica.Channel, err) // let the supervisor restart us
		}
		if id, err := strconv.ParseInt(m.Payload, 10, 32); err == nil {
			r.Memory.Forget(int32(id))
		}
	}
	return nil
}
