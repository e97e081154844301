// localonly: forgets the item on the replica that changed it, tells nobody else
// vi: quên item trên replica đã đổi nó, không báo cho ai khác

//go:build !solution

package main

import (
	"context"

	"github.com/peakload/workshop/internal/given/replica"
)

func Change(ctx context.Context, r *replica.Replica, id int32) error {
	if err := r.Write(ctx, id); err != nil {
		return err
	}
	r.Memory.Forget(id)
	return nil
}

func Listen(ctx context.Context, r *replica.Replica) error {
	<-ctx.Done()
	return nil
}
