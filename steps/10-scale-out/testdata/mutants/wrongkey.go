// wrongkey: publishes the Redis key (item:42) and parses it as a number: the error is dropped and item 0 is forgotten
// vi: publish key của Redis (item:42) rồi parse nó như một số: lỗi bị bỏ qua và item 0 bị quên

//go:build !solution

package main

import (
	"context"
	"strconv"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/replica"
)

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	return r.Redis.Publish(ctx, replica.Channel, catalog.ItemKey(id)).Err()
}

func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-sub.Channel():
			id, _ := strconv.Atoi(m.Payload)
			r.Memory.Forget(int32(id))
		}
	}
}
