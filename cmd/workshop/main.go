// Command workshop is the CLI behind the Makefile for the learner, the
// instructor and a team: it starts the services, seeds the data, runs the
// steps' checks and benches, and reports. The maintainer's tools (the
// mutant gate, the docs generator, test-latency, `make test`) and the
// handout printer are cmd/workshop-dev, so a learner's first table never
// compiles them (nor Go present's renderer, which only the handout needs).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/peakload/workshop/internal/cli"
)

// command is one verb. This table is the command list's one source: the
// usage below is printed from it, and commands_test.go holds the
// Makefile's `##` lines and the READMEs' command tables to it.
type command struct {
	name string // the verb
	args string // its arguments in the usage, e.g. "-step N"
	help string // what it does; "\n" starts an indented continuation line
	// target is the make target that runs it ("step-N bench" style for the
	// step actions); "" for a verb the Makefile does not expose.
	target string
	run    func(ctx context.Context, cfg cli.Config, args []string) error
}

var commands = []command{
	{"doctor", "", "what is installed / missing, and how to get it", "doctor", runDoctor},
	{"deps", "", "install the missing Debian/Ubuntu packages (root)", "deps", runDeps},
	{"up", "[service…]", "start postgres, redis, mongo (STACK=auto|native|compose)", "up", runUp},
	{"down", "[service…]", "stop what up started", "down", runDown},
	{"seed", "", "create and load the catalogue (skipped when present)", "seed", runSeed},
	{"bench", "-step N", "run step N's scenario and print the table", "bench", runBench},
	{"step", "-step N", "the lesson's summary, then its check", "step-%", runStep},
	{"check", "-step N", "the step's check (SOLUTION=1: on the reference)", "check", runCheck},
	{"watch", "-step N", "the check again on every save of the step's files (Ctrl-C stops)", "watch", runWatch},
	{"reset", "-step N", "restore the untouched exercise.go (yours kept in .workshop/backup/)", "reset", runReset},
	{"run", "-step N", "serve step N on 127.0.0.1:8080 with its services", "run", runServe},
	{"hint", "-step N", "the next hint of the step's exercise", "hint", runHint},
	{"diff", "-step N", "what the reference adds over the exercise", "diff", runDiff},
	{"profile", "-step N", "CPU and mutex profiles of step N under load", "profile", runProfile},
	{"drill", "-step N", "kill a database (and the server) under load, count what survived (2, 6, 7)", "drill", runDrill},
	{"progress", "", "per step: solved?, hints seen, the last bench's verdicts (-format json|markdown, FORMAT=)", "progress", runProgress},
	{"grade", "", "CI on a learner's fork: the checks of the steps whose exercise.go changed, then\nthe progress table into the job summary ($GITHUB_STEP_SUMMARY)", "grade", runGrade},
	{"probe", "-url URL", "the bench's loops, table and results on a service of yours (loopback unless -allow-remote)", "probe", runProbe},
	{"audit", "-url URL", "the articles' practices checked from outside: one verdict each, with its evidence", "audit", runAudit},
	{"compare", "", "every step's latest result against the articles;\n-a FILE -b FILE (A= B=): two runs of a step side by side\n-dir FOLDER (DIR=): many people's results, a table per step, a row per person", "compare", runCompare},
	{"report", "[-ref]", "one HTML page of every chart and claim (results/report/);\n-ref: the reference runs, and the slides' figures", "report", runReport},
	{"worker", "", "the live-stats worker alone (PEAKLOAD_POSTGRES_URL)", "", runWorker},
	{"latency-proxy", "", "forward -target with -delay added per round trip (LATENCY)", "", runLatencyProxy},
}

// usage lists the commands, then points at the maintainer's.
func usage() string {
	var b strings.Builder
	b.WriteString("usage: workshop <command> [flags]\n\n")
	for _, c := range commands {
		lines := strings.Split(c.help, "\n")
		fmt.Fprintf(&b, "  %-17s %s\n", strings.TrimSpace(c.name+" "+c.args), lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "  %-17s %s\n", "", l)
		}
	}
	b.WriteString("\nThe maintainer's and the room's preparation (make test, test-latency, docs, mutants, handout):\n  go run ./cmd/workshop-dev help\n")
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
	if name == "help" || name == "-h" || name == "--help" {
		fmt.Print(usage())
		return
	}
	cfg, err := cli.FromEnv() // the one reading of the environment
	if err != nil {
		fmt.Fprintln(os.Stderr, "workshop:", err)
		os.Exit(2)
	}
	stateDir = cfg.Stack.Dir
	if err := dispatch(ctx, cfg, name, args); err != nil {
		fmt.Fprintln(os.Stderr, "workshop:", err)
		os.Exit(1)
	}
}

// stateDir is where a learner's progress and hints are kept (PEAKLOAD_DIR,
// from the one parse): main sets it, as the progress files are read from
// verbs and helpers that have no configuration of their own.
var stateDir = ".workshop"

// dispatch runs the verb called name with the configuration.
func dispatch(ctx context.Context, cfg cli.Config, name string, args []string) error {
	for _, c := range commands {
		if c.name == name {
			return c.run(ctx, cfg, args)
		}
	}
	return fmt.Errorf("unknown command %q\n%s", name, usage())
}
