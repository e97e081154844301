// publishtimeout: publishes on a context of its own with a timeout (context.WithTimeout(context.WithoutCancel(ctx), 5s)), still before returning, and returns the failure wrapped; Listen loops while ctx.Err() == nil and parses with fmt.Sscan, forgetting in its own loop: the same order, the same promise
// vi: publish trên một context riêng có timeout (context.WithTimeout(context.WithoutCancel(ctx), 5s)), vẫn trước khi trả về, và trả lỗi đã wrap; Listen lặp khi ctx.Err() == nil, parse bằng fmt.Sscan và Forget ngay trong vòng lặp của nó: cùng thứ tự, cùng lời hứa

//go:build !solution

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/replica"
)

// announceWithin bounds the announcement: a stuck Redis fails the change
// after it rather than holding the client for ever.
const announceWithin = 5 * time.Second

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return fmt.Errorf("change item %d: %w", id, err)
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), announceWithin)
	defer cancel()
	if err := r.Redis.Publish(pctx, replica.Channel, fmt.Sprint(id)).Err(); err != nil {
		return fmt.Errorf("item %d written, not announced: %w", id, err)
	}
	return nil
}

func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	msgs := sub.Channel()
	for ctx.Err() == nil {
		var m *redis.Message
		select {
		case <-ctx.Done():
			continue
		case m = <-msgs:
		}
		var id int32
		if _, err := fmt.Sscan(m.Payload, &id); err == nil && fmt.Sprint(id) == m.Payload {
			r.Memory.Forget(id)
		}
	}
	return nil
}
