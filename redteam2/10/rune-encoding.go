// WRONG: the id travels as one rune (string(rune(id)), read back with []rune): ids above 0x10FFFF, or in the surrogate range, all arrive as U+FFFD

//go:build !solution

package main

import (
	"context"

	"github.com/peakload/workshop/internal/given/replica"
)

// Change writes the item, then announces it to every replica.
func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	return r.Redis.Publish(ctx, replica.Channel, string(rune(id)) /* one rune: the shortest payload */).Err()
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
			rs := []rune(m.Payload)
			if len(rs) != 1 {
				continue
			}
			r.Memory.Forget(int32(rs[0]))
		}
	}
}
