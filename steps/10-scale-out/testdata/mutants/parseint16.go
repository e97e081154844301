// parseint16: parses the id with strconv.ParseInt(payload, 10, 16) "since ids are small": an id above 32 767 fails to parse and is never forgotten
// vi: parse id bằng strconv.ParseInt(payload, 10, 16) "vì id nhỏ": id trên 32 767 không parse được và không bao giờ bị quên

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
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-ch:
			if id, err := strconv.ParseInt(m.Payload, 10, 16); err == nil {
				r.Memory.Forget(int32(id))
			}
		}
	}
}
