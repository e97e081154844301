package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/peakload/workshop/internal/audit"
	"github.com/peakload/workshop/internal/cli"
	"github.com/peakload/workshop/internal/messages"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/probe"
)

// runAudit is `make audit URL=…`: the articles' practices checked on a
// service from outside (internal/audit), one verdict each with its
// evidence, into results/audit/.
func runAudit(ctx context.Context, cfg cli.Config, args []string) error {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	var svc serviceFlags
	svc.register(fs, "a GET route of the service, e.g. http://127.0.0.1:8080/items/1",
		"the service's Prometheus metrics URL", "audit a host that is not this machine (yours, and only yours)")
	var c audit.Config
	fs.StringVar(&c.Post, "post", os.Getenv("POST"), "a route that takes a JSON body (the shell's probes); default: the URL's path")
	fs.StringVar(&c.ColdPath, "cold", os.Getenv("COLD"), "the cold key's path (default: the URL's): one nobody has read")
	fs.StringVar(&c.Change, "change", os.Getenv("CHANGE"), "'METHOD /path' sent just before the cold key's requests (a write that invalidates it)")
	fs.StringVar(&c.Queries, "queries", os.Getenv("QUERIES"), "the metric counting the service's database queries (with -metrics)")
	fs.IntVar(&c.Cold, "n", 50, "concurrent identical requests for the cold key")
	fs.DurationVar(&c.SlowlorisBound, "slowloris", 10*time.Second, "how long a trickling client may hold a connection")
	fs.DurationVar(&c.Burst, "burst", 3*time.Second, "the open-loop burst's length (0: no burst)")
	fs.BoolVar(&c.BurstPost, "burst-post", os.Getenv("BURST_POST") == "1", "burst the -post route with -body instead of GETs of the URL")
	fs.StringVar(&c.Body, "body", os.Getenv("BODY"), "the JSON body of -burst-post (default {})")
	if err := fs.Parse(args); err != nil {
		return err
	}
	target, remote := svc.URL, svc.AllowRemote
	c.MetricsURL = svc.Metrics
	if target == "" {
		return errors.New(messages.T("audit.usage"))
	}
	var err error
	if c.Target, err = probe.Resolve(ctx, target, remote); err != nil {
		return err
	}
	if c.MetricsURL != "" {
		if _, err := probe.Resolve(ctx, c.MetricsURL, remote); err != nil {
			return err // it quotes the METRICS URL
		}
	}
	c.P99Ms = params.Load().Capacity.P99Ms
	fmt.Fprint(os.Stderr, messages.T("audit.start", target, c.Target.Base, c.SlowlorisBound, c.Burst))
	res, findings, err := audit.Run(ctx, c)
	if err != nil {
		return err
	}
	printFindings(findings)
	path, err := res.WriteIn(filepath.Join(resultsDir(), "audit"))
	if err != nil {
		return err
	}
	fmt.Print(messages.T("audit.wrote", path))
	return nil
}

// printFindings prints the audit for a person, in the run's language: the
// findings are stored in English and said again (audit.Finding.Said).
func printFindings(fs []audit.Finding) {
	said := make([]audit.Finding, len(fs))
	for i, f := range fs {
		said[i] = f.Said()
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(messages.Words("table.audit.practice", "table.audit.verdict", "table.audit.step"), "\t"))
	for _, f := range said {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Practice, f.Cell(), f.Step)
	}
	tw.Flush()
	fmt.Print(messages.T("audit.evidence"))
	for _, f := range said {
		fmt.Printf("  %s: %s\n", f.Practice, f.Evidence)
	}
}
