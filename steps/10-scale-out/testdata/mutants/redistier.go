// redistier: the listeners delete the Redis key again instead of their memory copy: the stale copy is in memory
// vi: listener xoá lại key trong Redis thay vì bản sao trong bộ nhớ của nó: bản cũ vẫn nằm nguyên trong bộ nhớ

//go:build !solution

package main

import (
	"context"
	"strconv"

	"github.com/peakload/workshop/internal/given/catalog"
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
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-sub.Channel():
			if id, err := strconv.Atoi(m.Payload); err == nil {
				r.Redis.Del(ctx, catalog.ItemKey(int32(id)))
			}
		}
	}
}
