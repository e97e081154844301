// publishlater: publishes in a goroutine on the request's ctx, so as not to make the client wait: once the handler returns the ctx is cancelled and the announcement is dropped
// vi: publish trong một goroutine trên ctx của request, để client khỏi chờ: handler trả về là ctx bị huỷ và message báo thay đổi bị bỏ

//go:build !solution

package main

import (
	"context"
	"log"
	"strconv"

	"github.com/peakload/workshop/internal/given/replica"
)

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	go func() {
		if err := r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err(); err != nil {
			log.Printf("announcing item %d: %v", id, err)
		}
	}()
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
			if id, err := strconv.Atoi(m.Payload); err == nil {
				r.Memory.Forget(int32(id))
			}
		}
	}
}
