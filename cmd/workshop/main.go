// Command workshop is the CLI behind the Makefile for the learner, the
// instructor and a team: it starts the services, seeds the data, runs the
// steps' checks and benches, and reports. The maintainer's tools (the
// mutant gate, the docs generator, test-latency, `make test`) and the
// handout printer are cmd/workshop-dev, so a learner's first table never
// compiles them (nor Go present's renderer, which only the handout needs).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
)

// command is one verb. This table is the command list's one source: the
// usage below is printed from it, and commands_test.go holds the
// Makefile's `##` lines and the READMEs' command tables to it.
type command struct {
	name string // the verb
	args string // its arguments in the usage, e.g. "-step N"
	// What it does is the message "help.<name>" (texts.go),
	// in English and Vietnamese: PEAKLOAD_LANG=vi workshop help reads Vietnamese.
	// target is the make target that runs it ("step-N bench" style for the
	// step actions); "" for a verb the Makefile does not expose.
	target string
	run    func(ctx context.Context, cfg config.Config, args []string) error
}

var commands = []command{
	{"doctor", "", "doctor", runDoctor},
	{"deps", "", "deps", runDeps},
	{"up", "[service…]", "up", runUp},
	{"down", "[service…]", "down", runDown},
	{"seed", "", "seed", runSeed},
	{"bench", "-step N", "bench", runBench},
	{"step", "-step N", "step-%", runStep},
	{"check", "-step N", "check", runCheck},
	{"watch", "-step N", "watch", runWatch},
	{"reset", "-step N", "reset", runReset},
	{"run", "-step N", "run", runServe},
	{"hint", "-step N", "hint", runHint},
	{"diff", "-step N", "diff", runDiff},
	{"profile", "-step N", "profile", runProfile},
	{"drill", "-step N", "drill", runDrill},
	{"progress", "", "progress", runProgress},
	{"grade", "", "grade", runGrade},
	{"probe", "-url URL", "probe", runProbe},
	{"audit", "-url URL", "audit", runAudit},
	{"compare", "", "compare", runCompare},
	{"report", "[-ref]", "report", runReport},
	{"worker", "", "", runWorker},
	{"latency-proxy", "", "", runLatencyProxy},
}

// usage lists the commands, then points at the maintainer's.
func usage() string {
	var b strings.Builder
	b.WriteString(messages.T("help.usage") + "\n\n")
	for _, c := range commands {
		lines := strings.Split(messages.T("help."+c.name), "\n")
		fmt.Fprintf(&b, "  %-17s %s\n", strings.TrimSpace(c.name+" "+c.args), lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "  %-17s %s\n", "", l)
		}
	}
	b.WriteString("\n" + messages.T("help.dev") + "\n  go run ./cmd/workshop-dev help\n")
	return b.String()
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage())
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	name, args := os.Args[1], os.Args[2:]
	cfg, err := config.FromEnv() // the one reading of the environment
	messages.Use(cfg.Lang)       // every line from here on, help's included, in the reader's language
	if name == "help" || name == "-h" || name == "--help" {
		fmt.Print(usage())
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "workshop:", err)
		os.Exit(2)
	}
	settings, stateDir = cfg, cfg.Stack.Dir
	if err := dispatch(ctx, cfg, name, args); err != nil {
		fmt.Fprintln(os.Stderr, "workshop:", err)
		if errors.As(err, new(noVerdict)) {
			os.Exit(3)
		}
		os.Exit(1)
	}
}

// stateDir is where a learner's progress and hints are kept (PEAKLOAD_DIR,
// from the one parse): main sets it, as the progress files are read from
// verbs and helpers that have no configuration of their own.
var stateDir = ".workshop"

// settings is the one parse, for the helpers no verb hands it to (where
// results go, who ran): main sets it before any verb
// runs; a test sets the fields it needs.
var settings = config.Config{ResultsDir: "results"}

// dispatch runs the verb called name with the configuration.
func dispatch(ctx context.Context, cfg config.Config, name string, args []string) error {
	for _, c := range commands {
		if c.name == name {
			return c.run(ctx, cfg, args)
		}
	}
	return errors.New(messages.T("cli.unknown", name, usage()))
}
