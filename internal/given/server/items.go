package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/routes"
)

// ItemRoute is where the direct read is served, in every read-path step:
// step 1's technique, kept beside each later step's own route so the bench
// has its "before" (article A's starting point, A1: 645 req/s).
const ItemRoute = routes.Items

// DirectRead reads PostgreSQL on every request: one query per request,
// whatever the traffic.
func DirectRead(store *catalog.Store) echo.HandlerFunc {
	return Serve(store.ItemJSON)
}

// Getter returns an item's response body. Each read-path step is a
// different Getter (the database, Redis in front of it, …); Serve is the
// HTTP shell they share.
type Getter func(ctx context.Context, id int32) ([]byte, error)

// Serve writes the JSON body Read returns.
func Serve(get Getter) echo.HandlerFunc {
	return func(c echo.Context) error {
		body, err := Read(c, get)
		if err != nil {
			return err
		}
		return c.JSONBlob(http.StatusOK, body)
	}
}

// Read validates the request's id (400 for anything but a positive
// integer) and calls get (404 for an unknown item): the start every item
// route shares, whatever it then writes.
func Read(c echo.Context, get Getter) ([]byte, error) {
	id, err := catalog.ParseID(c.Param("id"))
	if err != nil {
		return nil, echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	body, err := get(c.Request().Context(), id)
	if err != nil {
		return nil, ReadError(err)
	}
	return body, nil
}

// ReadError maps a Getter's error to the response: 404 for an unknown item,
// otherwise a real fault (500, logged).
func ReadError(err error) error {
	if errors.Is(err, catalog.ErrNotFound) {
		return echo.NewHTTPError(http.StatusNotFound, err.Error())
	}
	return err
}
