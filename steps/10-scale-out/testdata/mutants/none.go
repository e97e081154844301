// none: no invalidation at all: each replica serves its old copy until the burst TTL ends
// vi: không có invalidation gì cả: mỗi replica phục vụ bản sao cũ của nó cho tới hết TTL của burst cache

//go:build !solution

package main

import (
	"context"

	"github.com/peakload/workshop/internal/given/replica"
)

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	return r.Write(ctx, id)
}

func Listen(ctx context.Context, r *replica.Replica) error {
	<-ctx.Done()
	return nil
}
