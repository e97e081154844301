// WRONG: Listen stops by Unsubscribe from a goroutine and ranges over sub.Channel(), which Unsubscribe never closes: when ctx ends Listen does not return, and the subscription is never closed

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
	go func() {
		<-ctx.Done()
		sub.Unsubscribe(context.Background(), replica.Channel) // stop the messages; the channel drains
	}()
	for m := range sub.Channel() {
		if id, err := strconv.ParseInt(m.Payload, 10, 32); err == nil {
			r.Memory.Forget(int32(id))
		}
	}
	return nil
}
