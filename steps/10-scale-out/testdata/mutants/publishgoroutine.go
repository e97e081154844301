// publishgoroutine: publishes with go r.Redis.Publish(context.WithoutCancel(ctx), …) "so the client does not wait": the 200 goes out before the change is announced, and a failed publish is never reported
// vi: publish bằng go r.Redis.Publish(context.WithoutCancel(ctx), …) "để client khỏi chờ": 200 được trả về trước khi thay đổi được báo đi, và publish lỗi thì không ai biết

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
	go r.Redis.Publish(context.WithoutCancel(ctx), replica.Channel, strconv.Itoa(int(id)))
	return nil
}

func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-sub.Channel():
			if id, err := strconv.ParseInt(m.Payload, 10, 32); err == nil {
				r.Memory.Forget(int32(id))
			}
		}
	}
}
