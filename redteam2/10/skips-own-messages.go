// WRONG: each message says which replica sent it, and a replica skips its own (it "already knows"): the replica that wrote keeps serving its old copy for the burst TTL

//go:build !solution

package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/peakload/workshop/internal/given/replica"
)

// Change writes the item, then announces it to the other replicas.
func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	return r.Redis.Publish(ctx, replica.Channel, r.Name+" "+strconv.Itoa(int(id))).Err()
}

// Listen forgets every item announced, until ctx ends.
func Listen(ctx context.Context, r *replica.Replica) error {
	sub := r.Redis.Subscribe(ctx, replica.Channel)
	defer sub.Close()
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-ch:
			from, rest, _ := strings.Cut(m.Payload, " ")
			if from == r.Name {
				continue // our own change
			}
			id, err := strconv.ParseInt(rest, 10, 32)
			if err != nil {
				continue
			}
			r.Memory.Forget(int32(id))
		}
	}
}
