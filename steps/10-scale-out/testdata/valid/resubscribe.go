// resubscribe: on a receive error Listen closes its subscription and subscribes again by hand (go-redis would have); a message published while it swaps is lost, as pub/sub loses it, and the TTL bounds that
// vi: gặp lỗi receive thì Listen đóng subscription rồi tự subscribe lại bằng tay (go-redis vốn tự làm việc này); message nào publish đúng lúc đang đổi subscription thì mất, như pub/sub vốn vẫn làm mất, và TTL giới hạn thiệt hại đó

//go:build !solution

package main

import (
	"context"
	"strconv"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/replica"
)

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	return r.Redis.Publish(ctx, replica.Channel, strconv.Itoa(int(id))).Err()
}

func Listen(ctx context.Context, r *replica.Replica) error {
	var mu sync.Mutex
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	current := func() *redis.PubSub { mu.Lock(); defer mu.Unlock(); return sub }
	go func() { <-ctx.Done(); current().Close() }()
	defer func() { current().Close() }()
	for {
		m, err := current().ReceiveMessage(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			mu.Lock()
			sub.Close()
			sub = r.Redis.Subscribe(ctx, replica.Channel)
			mu.Unlock()
			continue
		}
		if id, err := strconv.Atoi(m.Payload); err == nil {
			r.Memory.Forget(int32(id))
		}
	}
}
