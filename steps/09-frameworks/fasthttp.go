package main

import (
	"bytes"
	"context"
	"errors"
	"net"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/given/server"
)

// serveFastHTTP is fasthttp with no router: one handler that switches on
// method and path. fasthttp reuses its request and response objects and
// parses headers lazily, which is where its speed comes from — and why a
// handler must not keep ctx or its byte slices after it returns.
func serveFastHTTP(ctx context.Context, ln net.Listener, app *endpoints.App) error {
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
			if nothingRead(c, err) {
				_ = c.Conn().Close() // so the answer fasthttp writes next goes nowhere
				return
			}
			if errors.Is(err, fasthttp.ErrBodyTooLarge) {
				writeFast(c, fasthttp.StatusRequestEntityTooLarge, endpoints.TooLarge)
				return
			}
			writeFast(c, fasthttp.StatusBadRequest, endpoints.Error("malformed request: "+err.Error()))
		},
	}
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(ln) }, srv.ShutdownWithContext)
}

// nothingRead: the connection timed out (ReadTimeout) or closed before a
// byte of a request came. fasthttp would answer it 400 (through the
// handler above) on a connection no request was sent on — a load tool's
// spare connection, opened and never used: Go's client then logs
// "Unsolicited response received on idle HTTP channel". net/http just
// closes such a connection; so do we. fasthttp passes the network error
// bare then (it wraps it once part of a request was read).
func nothingRead(c *fasthttp.RequestCtx, err error) bool {
	_, bare := err.(*net.OpError)
	return bare && len(c.Request.Header.RawHeaders()) == 0
}

var itemsPrefix, debugPrefix = []byte(endpoints.ItemsPrefix), []byte("/debug/pprof/")

func writeFast(c *fasthttp.RequestCtx, code int, body []byte) {
	c.SetStatusCode(code)
	c.SetContentType("application/json")
	c.SetBody(body)
}
