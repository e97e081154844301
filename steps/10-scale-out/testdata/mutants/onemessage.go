// onemessage: Listen handles the first message and then only waits for ctx: every later change stays stale up to the burst TTL
// vi: Listen xử lý message đầu tiên rồi chỉ ngồi chờ ctx: mọi thay đổi sau đó vẫn bị phục vụ bản cũ tới hết TTL của burst cache

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
	select {
	case <-ctx.Done():
	case m := <-sub.Channel():
		if id, err := strconv.Atoi(m.Payload); err == nil {
			r.Memory.Forget(int32(id))
		}
		<-ctx.Done()
	}
	return nil
}
