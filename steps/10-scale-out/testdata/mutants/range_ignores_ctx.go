// range_ignores_ctx: Listen ranges over sub.Channel() and never watches ctx: it does not return when its context ends, and its subscription stays open
// vi: Listen range qua sub.Channel() và không bao giờ để ý ctx: nó không trả về khi context kết thúc, và subscription vẫn mở

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
	for m := range sub.Channel() {
		id, err := strconv.ParseInt(m.Payload, 10, 32)
		if err != nil {
			continue
		}
		r.Memory.Forget(int32(id))
	}
	return nil
}
