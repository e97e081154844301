// WRONG: a message deletes the item's Redis key instead of the replica's memory copy: memory keeps serving the old item for the burst TTL

//go:build !solution

package main

import (
	"context"
	"strconv"

	"github.com/peakload/workshop/internal/given/catalog"
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
			r.Redis.Del(ctx, catalog.ItemKey(int32(id)))
		}
	}
}
