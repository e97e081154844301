package server

import (
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/serverenv"
)

// The shell's limits: the one place every server of the workshop reads
// them from, step 9's frameworks included.
const (
	// ReadHeaderTimeout is how long a client may take to send its request
	// line and headers. Without it a slowloris client, sending one header
	// byte every few seconds, holds a connection and a goroutine forever;
	// a few hundred of them exhaust the server.
	ReadHeaderTimeout = 5 * time.Second
	// ReadTimeout bounds the whole request, body included.
	ReadTimeout = 15 * time.Second
	// WriteTimeout bounds the time to answer, from the end of the headers.
	WriteTimeout = 30 * time.Second
	// IdleTimeout closes kept-alive connections nobody uses.
	IdleTimeout = 2 * time.Minute
	// BodyLimit caps every request body (64 KiB, far above any event):
	// bigger bodies get 413 before any parsing, so nobody makes the server
	// read and hold megabytes to reject them.
	BodyLimit = 64 << 10
)

// SetTimeouts applies the shell's timeouts to a net/http server.
func SetTimeouts(s *http.Server) {
	s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout, s.IdleTimeout = ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout
}

// Layer is how much of the shell a server gets (PEAKLOAD_SHELL names it,
// so its type lives with the configuration that parses it).
type Layer = serverenv.Layer

// The layers, cheapest first: see serverenv.Layer.
const (
	Bare     = serverenv.Bare
	Timeouts = serverenv.Timeouts
	Guards   = serverenv.Guards
	Full     = serverenv.Full
)

// shell is the shell's middleware: guards, then counting. One middleware
// doing both rather than echo's Recover, BodyLimit and a counter in a row,
// because echo composes its middleware chain anew on every request: each
// middleware is a closure allocated per request (the profile of step 0
// shows them).
func shell(count bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !count {
				return guard(next, c)
			}
			// The request's own counts (metrics.Tally), added to the
			// completed counters on the line after its response is counted.
			req, tally := metrics.WithRequestTally(c.Request())
			c.SetRequest(req)
			err := guard(next, c)
			if err != nil {
				c.Error(err) // write the error response now, so it is counted
			}
			route := c.Path() // the pattern, so /items/1 and /items/2 are one series
			if route == "" {
				route = "unmatched"
			}
			res := c.Response()
			metrics.CountResponse(route, c.Request().Method, res.Status, res.Size)
			tally.Complete(route)
			return nil
		}
	}
}

// errTooLarge is the body limit's answer when the client says up front
// (Content-Length) that its body is too big.
var errTooLarge = echo.NewHTTPError(http.StatusRequestEntityTooLarge)

// guard runs the handler with the body capped at BodyLimit and turns a
// panic into an error (500, logged with its stack): one bad request must
// not take down the process and every request in flight with it.
func guard(next echo.HandlerFunc, c echo.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if r == http.ErrAbortHandler { // net/http's way to abort a response: let it through
				panic(r)
			}
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	req := c.Request()
	if req.ContentLength > BodyLimit {
		return errTooLarge
	}
	if req.Body != nil && req.Body != http.NoBody { // a GET has no body: nothing to wrap
		req.Body = http.MaxBytesReader(c.Response(), req.Body, BodyLimit)
	}
	return next(c)
}

// tooLarge reports whether err is the body limit's.
func tooLarge(err error) bool {
	var he *echo.HTTPError
	var mb *http.MaxBytesError
	return errors.As(err, &mb) || (errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge)
}
