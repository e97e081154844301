// ignoreserror: announces even when the write failed, and answers 200: an unknown item is reported changed
// vi: vẫn báo thay đổi kể cả khi lượt ghi fail, và trả 200: một item không tồn tại bị báo là đã đổi

//go:build !solution

package main

import (
	"context"
	"strconv"

	"github.com/peakload/workshop/internal/given/replica"
)

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	_ = r.Write(ctx, id)
	return r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err()
}

func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-sub.Channel():
			if id, err := strconv.Atoi(m.Payload); err == nil {
				r.Memory.Forget(int32(id))
			}
		}
	}
}
