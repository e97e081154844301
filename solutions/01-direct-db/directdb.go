// Package directdb is step 1's technique, kept importable so that every
// later step can serve it beside its own: GET /items/:id read straight from
// PostgreSQL on every request. It is article A's starting point (A1: 645
// req/s) and the "before" of the cache steps.
package directdb

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/peakload/workshop/internal/catalog"
)

// Route is where the direct read is served, in every step.
const Route = "/items/:id"

// Handler validates the id, runs the item query (one DB query per request,
// whatever the traffic) and renders the response.
func Handler(store *catalog.Store) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := catalog.ParseID(c.Param("id"))
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		row, err := store.Item(c.Request().Context(), id)
		if errors.Is(err, catalog.ErrNotFound) {
			return echo.NewHTTPError(http.StatusNotFound, err.Error())
		}
		if err != nil {
			return err // a real fault: 500, logged
		}
		return c.JSON(http.StatusOK, row.Response())
	}
}
