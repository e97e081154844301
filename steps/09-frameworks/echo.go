package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/given/server"
)

// serveEcho is echo v4 as the other steps use it, minus their counting
// middleware: a router with path parameters, a context per request, and
// a JSON error handler.
func serveEcho(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Listener = ln
	server.SetTimeouts(e.Server)
	e.Use(middleware.BodyLimit(strconv.Itoa(server.BodyLimit)))
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		var he *echo.HTTPError
		code, body := http.StatusInternalServerError, endpoints.Error("internal server error")
		if errors.As(err, &he) {
			switch code = he.Code; code {
			case http.StatusRequestEntityTooLarge:
				body = endpoints.TooLarge
			case http.StatusNotFound:
				body = endpoints.NotFound
			case http.StatusMethodNotAllowed:
				body = endpoints.NotAllowed
			default:
				body = endpoints.Error(http.StatusText(code))
			}
		}
		_ = c.JSONBlob(code, body)
	}

	e.GET(endpoints.EmptyPath, func(c echo.Context) error {
		return c.JSONBlob(http.StatusOK, app.Empty())
	})
	e.POST(endpoints.ValidatePath, func(c echo.Context) error {
		body, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return err // the body limit's 413
		}
		return c.JSONBlob(app.Validate(body))
	})
	e.GET(endpoints.ItemsPrefix+":id", func(c echo.Context) error {
		return c.JSONBlob(app.Item(c.Request().Context(), c.Param("id")))
	})
	e.GET(endpoints.HealthPath, func(c echo.Context) error { return c.JSONBlob(http.StatusOK, app.Health()) })
	e.GET(endpoints.MetricsPath, echo.WrapHandler(endpoints.Metrics))
	e.GET("/debug/pprof/*", echo.WrapHandler(debugHandler))

	return endpoints.ServeUntil(ctx, func() error { return e.Start("") }, e.Shutdown)
}
