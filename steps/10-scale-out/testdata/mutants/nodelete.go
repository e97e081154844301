// nodelete: subscribes and reads every announcement, but never forgets anything
// vi: subscribe và đọc mọi message báo thay đổi, nhưng không bao giờ quên gì

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
			log.Printf("%s: item %s changed", r.Name, m.Payload)
		}
	}
}
