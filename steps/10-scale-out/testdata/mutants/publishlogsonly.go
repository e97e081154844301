// publishlogsonly: publishes before returning, but only logs a refused publish and answers 200: the client reads "changed, every replica told" while every replica keeps its old copy up to the burst TTL
// vi: publish trước khi trả về, nhưng publish bị từ chối thì chỉ log rồi vẫn trả 200: client đọc được "đã đổi, mọi replica đã biết" trong khi replica nào cũng giữ bản cũ tới hết burst TTL

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
	if err := r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err(); err != nil {
		log.Printf("item %d changed, but announcing it failed: %v", id, err)
	}
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
