// Command workshop is the one CLI behind the Makefile: it starts the
// services, seeds the data, runs the benches and checks the machine.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

const usage = `usage: workshop <command> [flags]

  doctor            what is installed / missing, and how to get it
  deps              install the missing Debian/Ubuntu packages (root)
  up [service…]     start postgres, redis, mongo (STACK=auto|native|compose)
  down [service…]   stop what up started
  seed              create and load the catalogue (skipped when present)
  bench -step N     run step N's scenario and print the table
  step -step N      the lesson's summary, then its check
  check -step N     the step's check (SOLUTION=1: on the reference)
  watch -step N     the check again on every save of the step's files (Ctrl-C stops)
  reset -step N     restore the untouched exercise.go (yours kept in .workshop/backup/)
  run -step N       serve step N on 127.0.0.1:8080 with its services
  hint -step N      the next hint of the step's exercise
  diff -step N      what the reference adds over the exercise
  profile -step N   CPU and mutex profiles of step N under load
  drill -step N     kill a database (and the server) under load, count what survived (2, 6, 7)
  mutants [-step N] prove the checks: each fails on every mutant, passes on every valid one
  progress          per step: solved?, hints seen, the last bench's verdicts (-format json|markdown, FORMAT=)
  grade             CI on a learner's fork: the checks of the steps whose exercise.go changed, then
                    the progress table into the job summary ($GITHUB_STEP_SUMMARY)
  probe -url URL    the bench's loops, table and results on a service of yours (loopback unless -allow-remote)
  audit -url URL    the articles' practices checked from outside: one verdict each, with its evidence
  compare           every step's latest result against the articles;
                    -a FILE -b FILE (A= B=): two runs of a step side by side
                    -dir FOLDER (DIR=): many people's results, a table per step, a row per person
  report [-ref]     one HTML page of every chart and claim (results/report/);
                    -ref: the reference runs, and the slides' figures
  docs [-check]     write the reference runs' figures into the READMEs' marked regions
  handout           print every slide deck to PDF (results/handout/; needs Chromium); -lang vi: the Vietnamese decks
  test              everything CI runs
  test-latency      steps 1–5 give the same verdicts with +0.2 ms per database round trip
  worker            the live-stats worker alone (PEAKLOAD_POSTGRES_URL)
  latency-proxy     forward -target with -delay added per round trip (LATENCY)
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd, args := os.Args[1], os.Args[2:]
	_, err := parseSolution(os.Getenv("SOLUTION"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "workshop:", err)
		os.Exit(2)
	}
	switch cmd {
	case "doctor":
		err = runDoctor()
	case "deps":
		err = runDeps()
	case "up":
		err = runUp(ctx, args)
	case "down":
		err = runDown(args)
	case "seed":
		err = runSeed(ctx)
	case "bench":
		err = runBench(ctx, args)
	case "step":
		err = runStep(ctx, args)
	case "check":
		err = runCheck(ctx, args)
	case "run":
		err = runServe(ctx, args)
	case "hint":
		err = runHint(args)
	case "diff":
		err = runDiff(args)
	case "test":
		err = runTest(ctx)
	case "watch":
		err = runWatch(ctx, args)
	case "reset":
		err = runReset(args)
	case "mutants":
		err = runMutants(ctx, args)
	case "progress":
		err = runProgress(args)
	case "test-latency":
		err = runTestLatency(ctx)
	case "worker":
		err = runWorker(ctx)
	case "latency-proxy":
		err = runLatencyProxy(ctx, args)
	case "grade":
		err = runGrade(ctx, args)
	case "probe":
		err = runProbe(ctx, args)
	case "audit":
		err = runAudit(ctx, args)
	case "compare":
		err = runCompare(args)
	case "report":
		err = runReport(args)
	case "docs":
		err = runDocs(args)
	case "handout":
		err = runHandout(ctx, args)
	case "drill":
		err = runDrill(ctx, args)
	case "profile":
		err = runProfile(ctx, args)
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		err = fmt.Errorf("unknown command %q\n%s", cmd, usage)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "workshop:", err)
		os.Exit(1)
	}
}
