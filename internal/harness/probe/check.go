package probe

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// The probe's own rules for a service it did not write, stated in every
// results file's notes. A request is sent once: fasthttp would send a
// failed GET again, up to five times, each waiting its whole timeout, so
// a hanging service held a probe for minutes and a failure read as a
// slow success. Past MaxErrorShare errors a row measured a failure, and
// a failure has no req/s.
const (
	RequestTimeout = 5 * time.Second
	MaxErrorShare  = 0.01
)

// Rules is the sentence stating them, in English (a results file's note).
func Rules() string {
	return messages.English.T("probe.rules", RequestTimeout, 100*MaxErrorShare)
}

// options are the load's options under the probe's rules.
func (c Config) options() load.Options {
	return load.Options{Target: c.Target.Base, VUs: c.VUs, Duration: c.Duration, Warmup: c.Warmup,
		Progress: c.Progress, RequestTimeout: RequestTimeout, NoRetry: true}
}

// TryFirst sends each row's request once, before any load: a service that
// refuses, hangs or fails is said so here, in one line, rather than
// measured as thousands of errors a second.
func (c Config) TryFirst(ctx context.Context) error {
	for _, v := range c.Variants() {
		if err := load.Once(ctx, c.options(), v); err != nil {
			if ctx.Err() != nil {
				return err
			}
			return errors.New(messages.T("probe.first_failed", v.Name, OneLine(err.Error()), RequestTimeout, c.Target.Base))
		}
	}
	return nil
}

// OneLine is an error in one line: a body's newlines would break the
// sentence it is quoted in.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// judge says whether a row measured a service that serves: no answer in
// the window, or errors above MaxErrorShare, fail it.
func judge(r result.Run, o load.Options) error {
	if r.Requests == 0 {
		return errors.New(messages.T("probe.row_silent", r.Variant, o.Duration, RequestTimeout))
	}
	if share := float64(r.Errors) / float64(r.Requests); share > MaxErrorShare {
		return errors.New(messages.T("probe.row_failed", r.Variant, r.Errors, r.Requests, 100*share, 100*MaxErrorShare, OneLine(r.FirstError)))
	}
	return nil
}

// checkMetrics reads METRICS once before any load: a page that is not
// Prometheus text, or a PER_REQUEST pattern that matches none of its
// metrics (a typo), is said now, not found missing from the table after.
func (c Config) checkMetrics(ctx context.Context) error {
	if c.MetricsURL == "" {
		return nil
	}
	_, names, err := ReadMetrics(ctx, c.MetricsURL)
	if err != nil {
		return err
	}
	for _, re := range c.PerRequest {
		if !slices.ContainsFunc(names, re.MatchString) {
			return errors.New(messages.T("probe.per_request_none", pattern(re), c.MetricsURL, len(names), Some(names)))
		}
	}
	return nil
}

// ReadMetrics scrapes url and returns its series and its metrics' names:
// an error when it cannot be read or is not Prometheus text (make audit's
// METRICS is checked the same way).
func ReadMetrics(ctx context.Context, url string) (proc.Counters, []string, error) {
	got, err := proc.ScrapeURL(ctx, url)
	if err != nil {
		return nil, nil, errors.New(messages.T("probe.metrics_failed", url, err))
	}
	names := MetricNames(got)
	if len(names) == 0 {
		return nil, nil, errors.New(messages.T("probe.metrics_not_text", url))
	}
	return got, names, nil
}

// Some are the first few names, for a message.
func Some(names []string) string { return strings.Join(names[:min(3, len(names))], ", ") }

// metricName is Prometheus's rule for a metric's name: a line of an HTML
// page that happens to end in a number is not one.
var metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)

// MetricNames are the metrics' names in a scrape (their series' labels
// dropped), sorted.
func MetricNames(c proc.Counters) []string {
	var out []string
	for k := range c {
		if !strings.Contains(k, "{") && metricName.MatchString(k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// pattern is a PER_REQUEST pattern as the user wrote it.
func pattern(re *regexp.Regexp) string {
	s := strings.TrimPrefix(re.String(), "^(?:")
	return strings.TrimSuffix(s, ")$")
}
