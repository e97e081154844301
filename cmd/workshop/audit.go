package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/audit"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/probe"
)

// runAudit is `make audit URL=…`: the steps' practices (the articles' and
// ours) checked on a service from outside (internal/harness/audit), one verdict each with its
// evidence, into results/audit/.
func runAudit(ctx context.Context, cfg config.Config, args []string) error {
	fs, svc, c, err := auditFlags(cfg.Verbs)
	if err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // -h: the usage was printed, as asked
		}
		return err
	}
	target, remote := svc.URL, svc.AllowRemote
	c.MetricsURL, c.NoPin = svc.Metrics, cfg.NoPin
	if target == "" {
		var help strings.Builder
		auditUsage(&help, fs)
		return errors.New(strings.TrimRight(help.String(), "\n"))
	}
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
	res, findings, err := audit.Run(ctx, *c)
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

// auditVars is each flag of the audit with the make variable that sets it
// (make audit URL=… SLOWLORIS=5s), in the order the help lists them: the
// README teaches the variables, -h names both.
var auditVars = []struct{ flag, variable string }{
	{"url", "URL"}, {"post", "POST"}, {"metrics", "METRICS"}, {"queries", "QUERIES"}, {"cold", "COLD"},
	{"change", "CHANGE"}, {"n", "COLD_N"}, {"slowloris", "SLOWLORIS"}, {"burst", "BURST"},
	{"burst-post", "BURST_POST=1"}, {"body", "BODY"}, {"allow-remote", "ALLOW_REMOTE=1"},
}

// auditFlags declares the audit's flags, each defaulting to its make
// variable; a variable that does not parse is an error naming it.
func auditFlags(v config.Verbs) (*flag.FlagSet, *serviceFlags, *audit.Config, error) {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(os.Stdout)
	fs.Usage = func() { auditUsage(os.Stdout, fs) }
	var svc serviceFlags
	if err := svc.register(fs, v, messages.T("audit.flag.url"), messages.T("audit.flag.metrics"), messages.T("audit.flag.allow_remote")); err != nil {
		return nil, nil, nil, err
	}
	var c audit.Config
	fs.StringVar(&c.Post, "post", v.Post, messages.T("audit.flag.post"))
	fs.StringVar(&c.ColdPath, "cold", v.Cold, messages.T("audit.flag.cold"))
	fs.StringVar(&c.Change, "change", v.Change, messages.T("audit.flag.change"))
	fs.StringVar(&c.Queries, "queries", v.Queries, messages.T("audit.flag.queries"))
	fs.IntVar(&c.Cold, "n", 50, messages.T("audit.flag.n"))
	fs.DurationVar(&c.SlowlorisBound, "slowloris", 10*time.Second, messages.T("audit.flag.slowloris"))
	fs.DurationVar(&c.Burst, "burst", 3*time.Second, messages.T("audit.flag.burst"))
	fs.BoolVar(&c.BurstPost, "burst-post", false, messages.T("audit.flag.burst_post"))
	fs.StringVar(&c.Body, "body", v.Body, messages.T("audit.flag.body"))
	err := setFromVars(fs, varFlag{"n", "COLD_N", v.ColdN}, varFlag{"slowloris", "SLOWLORIS", v.Slowloris},
		varFlag{"burst", "BURST", v.Burst}, varFlag{"burst-post", "BURST_POST", v.BurstPost})
	if err != nil {
		return nil, nil, nil, err
	}
	return fs, &svc, &c, nil
}

// auditUsage is the audit's help: the usage line, then each flag with its
// make variable, its default and what it does, in the run's language.
func auditUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, messages.T("audit.usage"))
	fmt.Fprint(w, messages.T("audit.flags"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, v := range auditVars {
		f := fs.Lookup(v.flag)
		def := f.DefValue
		if def == "" || def == "false" {
			def = "–"
		}
		fmt.Fprintf(tw, "  %s	-%s	%s	%s\n", v.variable, f.Name, def, f.Usage)
	}
	tw.Flush()
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
