// forgetfirst: also forgets locally at once, before its own message comes back (after the write, so it is still right): this replica is fresh without waiting for Redis
// vi: quên luôn ở chính replica này, trước khi message của nó quay về (sau lượt ghi, nên vẫn đúng): replica này có dữ liệu mới ngay, không phải chờ Redis

//go:build !solution

package main

import (
	"context"
	"strconv"

	"github.com/peakload/workshop/internal/given/replica"
)

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	r.Memory.Forget(id)
	return r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err()
}

func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m, ok := <-ch:
			if !ok {
				return nil
			}
			if id, err := strconv.ParseInt(m.Payload, 10, 32); err == nil {
				r.Memory.Forget(int32(id))
			}
		}
	}
}
