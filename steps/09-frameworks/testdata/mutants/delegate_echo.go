// delegate_echo: hands the work to serveEcho: the contract holds, and the bench measures echo twice
// vi: giao việc cho serveEcho: contract vẫn giữ, và bench đo echo hai lần

//go:build !solution

package main

import (
	"context"
	"net"

	"github.com/peakload/workshop/internal/given/endpoints"
)

// serveYours is the framework you add: FRAMEWORK=yours.
func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	return serveEcho(ctx, ln, app)
}
