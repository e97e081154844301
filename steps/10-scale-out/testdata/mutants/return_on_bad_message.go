// return_on_bad_message: Listen returns on a payload that is not an id: one stray message on the channel stops invalidation on that replica for good
// vi: Listen trả về khi gặp payload không phải id: một message lạc trên channel làm replica đó dừng invalidation luôn

//go:build !solution

package main

import (
	"context"
	"strconv"

	"github.com/peakload/workshop/internal/given/replica"
)

// Change writes the item, then announces it.
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
				return err
			}
			r.Memory.Forget(int32(id))
		}
	}
}
