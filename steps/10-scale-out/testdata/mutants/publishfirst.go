// publishfirst: announces before writing: a replica reloads the old row between its forget and the commit and keeps it a whole TTL
// vi: báo thay đổi trước khi ghi: một replica load lại hàng cũ giữa lúc nó quên và lúc commit, rồi giữ hàng đó cả một TTL

//go:build !solution

package main

import (
	"context"
	"strconv"

	"github.com/peakload/workshop/internal/given/replica"
)

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err(); err != nil {
		return err
	}
	return r.Write(ctx, id)
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
