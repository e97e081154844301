// receivetimeout: Listen reads with sub.ReceiveTimeout and checks ctx between reads, needing no goroutine to unblock it; a timeout or a dropped connection is just another turn of the loop (go-redis reconnects)
// vi: Listen đọc bằng sub.ReceiveTimeout và xem ctx giữa các lần đọc, không cần goroutine nào để gỡ chặn; timeout hay connection bị rớt chỉ là thêm một vòng lặp (go-redis tự kết nối lại)

//go:build !solution

package main

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

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
	for ctx.Err() == nil {
		msg, err := sub.ReceiveTimeout(ctx, 200*time.Millisecond)
		if err != nil {
			continue
		}
		if m, ok := msg.(*redis.Message); ok {
			if id, err := strconv.Atoi(m.Payload); err == nil {
				r.Memory.Forget(int32(id))
			}
		}
	}
	return nil
}
