package audit

import (
	"context"
	"errors"
	"net/http"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/probe"
)

// checkMetrics is checked before anything is sent: METRICS is Prometheus
// text and holds QUERIES (a typo is said now, not after the load).
func (c Config) checkMetrics(ctx context.Context) error {
	if c.Queries != "" && c.MetricsURL == "" {
		return errors.New(messages.T("audit.queries_metrics"))
	}
	if c.MetricsURL != "" {
		got, names, err := probe.ReadMetrics(ctx, c.MetricsURL)
		if err != nil {
			return err
		}
		if _, ok := got[c.Queries]; c.Queries != "" && !ok { // a name, or one series of it
			return errors.New(messages.T("audit.queries_none", c.Queries, c.MetricsURL, len(names), probe.Some(names)))
		}
	}
	return nil
}

// first is the audit's first request, before any probe: probe's TryFirst
// of the URL, one request bounded by its timeout. When the cold key is the
// URL's own path and no CHANGE makes it cold again, that GET would read
// the key first and the cold key would measure a warm one: then the cold
// key's own requests go first (each bounded the same way), a service that
// answers none of them ends the audit as a failed first request does, and
// the cold key's finding is returned.
func (c Config) first(ctx context.Context, client *http.Client) (*Finding, error) {
	try := &probe.Config{Target: c.Target}
	if c.Change != "" || c.ColdPath != c.Target.Path {
		return nil, try.TryFirst(ctx)
	}
	f, seen := coldKeySeen(ctx, c, client)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if seen.answered == 0 && seen.err != nil {
		return nil, errors.New(messages.T("audit.first_failed", c.Cold, c.ColdPath, probe.OneLine(seen.err.Error()), probe.RequestTimeout, c.Target.Base))
	}
	// Answers that are all errors (a 500 to everything) are the URL's GET
	// to say, now that the key has been read.
	return &f, try.TryFirst(ctx)
}
