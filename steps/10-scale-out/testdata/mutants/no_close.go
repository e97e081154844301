// no_close: Listen returns when its context ends without closing the subscription: the pub/sub connection stays open in Redis for nothing, one more each time a replica restarts its listener
// vi: Listen trả về khi context kết thúc mà không đóng subscription: connection pub/sub vẫn mở trong Redis chẳng để làm gì, thêm một cái mỗi lần một replica khởi động lại listener

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
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-ch:
			id, err := strconv.ParseInt(m.Payload, 10, 32)
			if err != nil {
				continue
			}
			r.Memory.Forget(int32(id))
		}
	}
}
