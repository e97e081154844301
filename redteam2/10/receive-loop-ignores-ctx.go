// WRONG: ReceiveMessage(ctx) in a loop that checks ctx between messages: go-redis does not interrupt a blocking pub/sub read when ctx ends, so Listen returns only when the next message comes, if ever

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
	return r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err()
}

// Listen forgets every item announced, until ctx ends.
func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	for ctx.Err() == nil {
		m, err := sub.ReceiveMessage(ctx)
		if err != nil {
			continue // a dropped connection: the next receive reconnects
		}
		if id, err := strconv.ParseInt(m.Payload, 10, 32); err == nil {
			r.Memory.Forget(int32(id))
		}
	}
	return nil
}
