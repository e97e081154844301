// fasthttp_copy: fasthttp.go copied under another name: bare fasthttp routes it, the same row as fasthttp
// vi: chép fasthttp.go sang tên khác: vẫn route bằng fasthttp trơn, nên đo ra đúng hàng của fasthttp

//go:build !solution

package main

import (
	"bytes"
	"context"
	"errors"
	"net"

	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

// serveYours is the framework you add: FRAMEWORK=yours.
func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	metrics := fasthttpadaptor.NewFastHTTPHandler(endpoints.Metrics)
	debug := fasthttpadaptor.NewFastHTTPHandler(debugHandler)
	handler := func(c *fasthttp.RequestCtx) {
		// Comparing string(bytes) does not allocate: fasthttp's style is to
		// stay on the request's own bytes.
		path, get, post := c.Path(), c.IsGet(), c.IsPost()
		switch {
		case string(path) == endpoints.EmptyPath && get:
			writeFast(c, fasthttp.StatusOK, app.Empty())
		case string(path) == endpoints.ValidatePath && post:
			if len(c.PostBody()) > server.BodyLimit {
				writeFast(c, fasthttp.StatusRequestEntityTooLarge, endpoints.TooLarge)
				return
			}
			code, body := app.Validate(c.PostBody())
			writeFast(c, code, body)
		case bytes.HasPrefix(path, itemsPrefix) && get:
			code, body := app.Item(c, string(path[len(itemsPrefix):]))
			writeFast(c, code, body)
		case string(path) == endpoints.HealthPath && get:
			writeFast(c, fasthttp.StatusOK, app.Health())
		case string(path) == endpoints.MetricsPath && get:
			metrics(c)
		case bytes.HasPrefix(path, debugPrefix) && get:
			debug(c)
		case known(string(path)):
			writeFast(c, fasthttp.StatusMethodNotAllowed, endpoints.NotAllowed)
		default:
			writeFast(c, fasthttp.StatusNotFound, endpoints.NotFound)
		}
	}
	srv := &fasthttp.Server{
		Handler: handler,
		Name:    "fasthttp",
		// Read an over-limit body (up to 1 MiB) before refusing it (413
		// above), as net/http does: refusing at the header would close the
		// connection while the client is still sending, and it would see a
		// reset instead of the JSON error. Past 1 MiB, the error handler.
		MaxRequestBodySize: 16 * server.BodyLimit,
		ReadTimeout:        server.ReadTimeout,
		WriteTimeout:       server.WriteTimeout,
		IdleTimeout:        server.IdleTimeout,
		// Errors before the handler runs (a body over 1 MiB, a request that
		// does not parse): JSON too, not fasthttp's plain text.
		ErrorHandler: func(c *fasthttp.RequestCtx, err error) {
			if errors.Is(err, fasthttp.ErrBodyTooLarge) {
				writeFast(c, fasthttp.StatusRequestEntityTooLarge, endpoints.TooLarge)
				return
			}
			writeFast(c, fasthttp.StatusBadRequest, endpoints.Error("malformed request: "+err.Error()))
		},
	}
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(ln) }, srv.ShutdownWithContext)
}
