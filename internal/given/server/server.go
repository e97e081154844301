// Package server is the HTTP shell every step server shares (echo v4): the
// ceilings (/empty), health, Prometheus metrics, pprof, timeouts, a body
// limit, JSON errors and a graceful shutdown that flushes what the step
// buffered. A step adds its own routes and nothing else.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/dbaddr"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/serverenv"
	"github.com/peakload/workshop/internal/given/tracking"
)

// DefaultAddr is loopback only: nothing is exposed unless the learner asks
// (PEAKLOAD_ADDR=0.0.0.0:8080).
const DefaultAddr = dbaddr.DefaultServerAddr

// Server is an echo instance plus the hooks to run on shutdown.
type Server struct {
	*echo.Echo
	Name       string
	onShutdown []func(context.Context) error
}

// New builds the shared server: the full shell. name is printed at start
// ("step 1 — direct-db").
func New(name string) *Server { return NewLayered(name, Full) }

// ProfileContention turns on the mutex and block profiles when the parent
// asks (on: serverenv.Config.MutexProfile, PEAKLOAD_MUTEX_PROFILE, set by
// `make step-N profile`): off by default, as sampling contention costs a
// little on every lock.
func ProfileContention(on bool) {
	if on {
		runtime.SetMutexProfileFraction(5)
		runtime.SetBlockProfileRate(100_000) // one sample per 100 µs blocked
	}
}

// NewLayered builds the server with the shell up to layer l: step 0
// measures each layer's price. The routes are the same at every layer
// (the bench needs /healthz and /metrics), and so is the JSON error
// handler, which only runs when a request fails.
func NewLayered(name string, l Layer) *Server {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler
	if l >= Timeouts {
		SetTimeouts(e.Server)
	}
	if l >= Guards {
		e.Use(shell(l >= Full))
	}

	s := &Server{Echo: e, Name: name}
	e.GET(routes.Empty, emptyGET)
	e.POST(routes.Empty, emptyPOST)
	e.GET("/healthz", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"status": "ok", "server": name})
	})
	e.GET("/metrics", echo.WrapHandler(promhttp.HandlerFor(metrics.Registry, promhttp.HandlerOpts{})))
	for _, p := range []string{"", "/"} {
		e.GET("/debug/pprof"+p, echo.WrapHandler(http.HandlerFunc(pprof.Index)))
	}
	e.GET("/debug/pprof/cmdline", echo.WrapHandler(http.HandlerFunc(pprof.Cmdline)))
	e.GET("/debug/pprof/profile", echo.WrapHandler(http.HandlerFunc(pprof.Profile)))
	e.GET("/debug/pprof/symbol", echo.WrapHandler(http.HandlerFunc(pprof.Symbol)))
	e.GET("/debug/pprof/trace", echo.WrapHandler(http.HandlerFunc(pprof.Trace)))
	e.GET("/debug/pprof/:name", echo.WrapHandler(http.HandlerFunc(pprof.Index)))
	return s
}

// emptyGET is the article's ceiling: no work, but a body as big as an item
// response, so it costs the same bytes on the wire as GET /items/:id.
func emptyGET(c echo.Context) error {
	return c.JSONBlob(http.StatusOK, EmptyBody)
}

// emptyPOST is article B's second baseline: read and validate the real event
// payload, then throw it away. Any write endpoint can only be slower.
func emptyPOST(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err
	}
	if _, err := tracking.Decode(body); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	return c.JSONBlob(http.StatusOK, []byte(`{"ok":true}`))
}

// OnShutdown registers f to run after the listener has stopped and in-flight
// requests have finished: the place to flush buffers (step 6).
func (s *Server) OnShutdown(f func(context.Context) error) {
	s.onShutdown = append(s.onShutdown, f)
}

// Run serves until SIGINT or SIGTERM, then shuts down gracefully: stop
// accepting, let in-flight requests finish, run the shutdown hooks. The
// process's configuration (serverenv) says where to listen and whether to
// profile contention.
func (s *Server) Run() error {
	cfg, err := serverenv.Load()
	if err != nil {
		return err
	}
	ProfileContention(cfg.MutexProfile)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", cfg.Addr, err)
	}
	s.Listener = ln
	log.Printf("%s listening on http://%s (GOMAXPROCS=%d)", s.Name, ln.Addr(), runtime.GOMAXPROCS(0))
	errc := make(chan error, 1)
	go func() { errc <- s.Start("") }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
	}
	log.Printf("%s shutting down", s.Name)
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = s.Shutdown(sctx)
	for _, f := range s.onShutdown {
		err = errors.Join(err, f(sctx))
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Printf("%s stopped cleanly", s.Name)
	return nil
}

// Main runs the server and exits non-zero on error: the last line of every
// step's main.
func (s *Server) Main() {
	if err := s.Run(); err != nil {
		log.Fatal(err)
	}
}

// errorHandler answers every error as JSON {"error": "..."}. Only real
// server faults are 5xx, and only those are logged.
func errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	code, msg := http.StatusInternalServerError, "internal server error"
	var he *echo.HTTPError
	switch {
	case tooLarge(err):
		code, msg = http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is larger than %d bytes", BodyLimit)
	case errors.As(err, &he):
		code, msg = he.Code, fmt.Sprint(he.Message)
	case errors.Is(err, context.Canceled):
		code, msg = 499, "client closed the request" // nginx's code; nobody reads it
	}
	if code >= 500 && code != http.StatusServiceUnavailable {
		c.Logger().Errorf("%s %s: %v", c.Request().Method, c.Request().URL.Path, err)
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(code)
		return
	}
	_ = c.JSON(code, map[string]string{"error": msg})
}

// EmptyBody is the ceiling's response: a sample item rendered exactly as
// GET /items/:id renders one, so both move the same bytes.
var EmptyBody = catalog.SampleJSON()
