// Package endpoints is step 9's application without a framework: the three
// endpoints every framework serves, as plain functions from a request's
// parts to a status and a JSON body. The frameworks (steps/09-frameworks)
// only route, read bodies and write responses, so the bench compares what
// they add and nothing else.
package endpoints

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strconv"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/given/tracking"
)

// Routes, as the bench and the k6 script name them.
const (
	EmptyPath    = routes.Empty    // GET: no work, a body as big as an item's
	ValidatePath = routes.Validate // POST: strict validation of an event, article D's strict validation at the gateway
	ItemsPrefix  = "/items/"       // routes.Items up to its id (routes.Prefix, as a constant for the frameworks)
	HealthPath   = "/healthz"
	MetricsPath  = "/metrics"
)

// App holds what the endpoints need.
type App struct {
	Store *catalog.Store
	Name  string // the framework, for /healthz and the logs
}

// Each endpoint counts its responses, as the other steps' middleware does,
// so the bench divides by what the server answered. A counter resolved once
// costs one atomic add: the same few nanoseconds under every framework.
var (
	emptyOK    = metrics.Requests.WithLabelValues(EmptyPath, "GET", "200")
	validateOK = metrics.Requests.WithLabelValues(ValidatePath, "POST", "200")
	itemOK     = metrics.Requests.WithLabelValues(routes.Items, "GET", "200")
)

func count(route, method string, code int) {
	metrics.Requests.WithLabelValues(route, method, strconv.Itoa(code)).Inc()
}

// completeEmpty counts a request that did no database work among the
// completed ones (metrics.Tally), as the shell of the other steps does.
func completeEmpty(route string) {
	var t metrics.Tally
	t.Complete(route)
}

// Empty is the ceiling's body: the same bytes as an item response.
func (a *App) Empty() []byte {
	emptyOK.Inc()
	completeEmpty(EmptyPath)
	return server.EmptyBody
}

var ok = []byte(`{"ok":true}`)

// Validate decodes an event strictly (unknown fields, wrong types, trailing
// data, out-of-range timestamps are 400s naming the problem) and answers
// {"ok":true}. Nothing is stored: this measures parsing and validation.
func (a *App) Validate(body []byte) (int, []byte) {
	defer completeEmpty(ValidatePath)
	if _, err := tracking.Decode(body); err != nil {
		count(ValidatePath, "POST", 400)
		return 400, Error(err.Error())
	}
	validateOK.Inc()
	return 200, ok
}

// Item reads /items/:id from PostgreSQL: 400 for an id that is not a
// positive integer, 404 for an unknown item, 500 (logged) for a database
// fault.
func (a *App) Item(ctx context.Context, id string) (int, []byte) {
	ctx, tally := metrics.WithTally(ctx)
	code, body := a.item(ctx, id)
	if code == 200 {
		itemOK.Inc()
	} else {
		count(routes.Items, "GET", code)
	}
	tally.Complete(routes.Items)
	return code, body
}

func (a *App) item(ctx context.Context, id string) (int, []byte) {
	n, err := catalog.ParseID(id)
	if err != nil {
		return 400, Error(err.Error())
	}
	body, err := a.Store.ItemJSON(ctx, n)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		return 404, Error(err.Error())
	case err != nil:
		log.Printf("%s GET /items/%s: %v", a.Name, id, err)
		return 500, Error("internal server error")
	}
	return 200, body
}

// Health is /healthz's body.
func (a *App) Health() []byte {
	return []byte(fmt.Sprintf(`{"status":"ok","server":%q}`, "step 9 — "+a.Name))
}

// Error is the JSON error body every endpoint answers: {"error": "..."}.
func Error(msg string) []byte {
	b, _ := json.Marshal(map[string]string{"error": msg}) // a string map cannot fail
	return b
}

// Errors the frameworks answer themselves.
var (
	TooLarge   = Error(fmt.Sprintf("request body is larger than %d bytes", server.BodyLimit))
	NotFound   = Error("no such route")
	NotAllowed = Error("method not allowed on this route")
)
