// receivemessage: Listen loops on sub.ReceiveMessage instead of sub.Channel(), and closes the subscription when ctx ends so the blocked read returns: the same messages, one call at a time
// vi: Listen lặp trên sub.ReceiveMessage thay vì sub.Channel(), và đóng subscription khi ctx kết thúc để lượt đọc đang chặn trả về: cùng các message, mỗi lần một lời gọi

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
	go func() { <-ctx.Done(); sub.Close() }() // a blocked ReceiveMessage does not watch ctx
	for {
		m, err := sub.ReceiveMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			continue // go-redis reconnects; what was published meanwhile is lost, the TTL bounds it
		}
		if id, err := strconv.Atoi(m.Payload); err == nil {
			r.Memory.Forget(int32(id))
		}
	}
}
