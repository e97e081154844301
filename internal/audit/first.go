package audit

import (
	"context"
	"errors"

	"github.com/peakload/workshop/internal/messages"
	"github.com/peakload/workshop/internal/probe"
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
