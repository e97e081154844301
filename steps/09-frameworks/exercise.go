//go:build !solution

package main

import (
	"context"
	"errors"
	"net"

	"github.com/peakload/workshop/internal/given/endpoints"
)

// serveYours is the framework you add: FRAMEWORK=yours.
//
// TODO(step 9): pick a Go HTTP framework the table lacks — chi, gin, fiber,
// hertz, gorilla/mux, bunrouter… — `go get` it, and serve app's endpoints
// with it exactly as echo.go, nethttp.go and fasthttp.go do: the same
// routes, bodies, statuses and JSON errors, a 64 KiB body limit (413),
// the timeouts, /healthz and /metrics, and a graceful shutdown when ctx is
// done (internal/given/endpoints has the shared pieces: ServeUntil, Metrics, the
// timeouts; WriteJSON, ReadBody, App.ServeValidate and HTTPServer for net/http-based ones). make step-9 check holds it to the same contract as the others;
// make step-9 bench then measures it beside them, on the same CPU.
func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	return errors.New("FRAMEWORK=yours is not written yet: serveYours in steps/09-frameworks/exercise.go")
}
