// delegate_fasthttp_goroutine: starts serveFastHTTP in a goroutine and waits for it: fasthttp again, one step removed
// vi: chạy serveFastHTTP trong một goroutine rồi chờ nó: vẫn là fasthttp, chỉ bọc thêm một lớp

//go:build !solution

package main

import (
	"context"
	"net"

	"github.com/peakload/workshop/internal/given/endpoints"
)

// serveYours is the framework you add: FRAMEWORK=yours.
func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	done := make(chan error, 1)
	go func() { done <- serveFastHTTP(ctx, ln, app) }()
	return <-done
}
