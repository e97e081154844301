// returnsonerror: Listen returns on the first receive error: one dropped pub/sub connection ends invalidation on that replica for good
// vi: Listen trả về ở lỗi receive đầu tiên: một connection pub/sub bị rớt làm replica đó hết invalidation luôn

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
	return r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err()
}

func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	go func() { <-ctx.Done(); sub.Close() }()
	for {
		m, err := sub.ReceiveMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if id, err := strconv.Atoi(m.Payload); err == nil {
			r.Memory.Forget(int32(id))
		}
	}
}
