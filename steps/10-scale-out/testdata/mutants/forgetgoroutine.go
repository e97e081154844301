// forgetgoroutine: Listen calls go r.Memory.Forget(id) "so a slow Forget does not hold up the next message": it takes the next announcement with the old copy still in memory, so a replica that has heard a later message may still serve the old item
// vi: Listen gọi go r.Memory.Forget(id) "để một lần Forget chậm không chặn message sau": nó nhận message báo thay đổi tiếp theo trong khi bản sao cũ vẫn còn trong bộ nhớ, nên một replica đã nghe message sau vẫn có thể trả item cũ

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
	msgs := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-msgs:
			if id, err := strconv.ParseInt(m.Payload, 10, 32); err == nil {
				go r.Memory.Forget(int32(id))
			}
		}
	}
}
