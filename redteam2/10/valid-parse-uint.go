// valid: (written as WRONG, judged again in phase 2) strconv.ParseUint(…, 10, 31) accepts exactly 0…MaxInt32, and item ids are positive int32s (catalog.ParseID refuses the rest), so every id that can be announced is read; the check is right to pass it

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
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-ch:
			id, err := strconv.ParseUint(m.Payload, 10, 31) // ids are positive
			if err != nil {
				continue
			}
			r.Memory.Forget(int32(id))
		}
	}
}
