// publishdetached: publishes in a goroutine on context.WithoutCancel(ctx), so the client does not wait for Redis: the request's end no longer cancels the announcement, which still arrives well within the bound
// vi: publish trong một goroutine trên context.WithoutCancel(ctx), để client khỏi chờ Redis: request kết thúc không còn huỷ message báo thay đổi, và message vẫn tới trong giới hạn

//go:build !solution

package main

import (
	"context"
	"log"
	"strconv"
	"time"

	"github.com/peakload/workshop/internal/given/replica"
)

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		if err := r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err(); err != nil {
			log.Printf("announcing item %d: %v (the replicas catch up within the burst TTL)", id, err)
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
			if id, err := strconv.ParseInt(m.Payload, 10, 32); err == nil {
				r.Memory.Forget(int32(id))
			}
		}
	}
}
