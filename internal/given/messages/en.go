package messages

// Step 6's note on a write row, in parts: the bulk baseline's ratio and the
// database's CPU are there only when measured.
// Data table: vi.go's viWriteRow, viWriteBulk and viWriteCPU in Vietnamese.
const (
	writeRow  = "%-5s total %.1f s (load %.1f s + additional %.1f s); answered %.2f× the empty POST; persisted %.2f× raw one-at-a-time, %.2f× raw ×100"
	writeBulk = ", %.2f× raw InsertMany"
	writeCPU  = "; database CPU %.0f µs per event (%.0f %% of a core; the author's row %d: %.0f µs, our arithmetic)"
)

// en is the English catalogue: every key the CLI uses, the reference for
// vi (TestEveryKeyIsTranslated).
//
// Data table: vi.go's map holds the same keys, in Vietnamese;
// TestEveryKeyIsTranslated holds the two together.
var en = map[string]string{
	// Verdicts and sources (internal/harness/result: Claim.VerdictIn, Source.NameIn).
	"verdict.reproduced":     "REPRODUCED",
	"verdict.not_reproduced": "NOT reproduced",
	"verdict.not_measured":   "not measured",
	"verdict.not_judged":     "not judged: the load tool limited %s",
	"verdict.unjudged":       "not judged: %s",
	"verdict.as_measured":    " (as measured: %s)",
	"verdict.busy":           "not judged (the machine was busy: other processes took %s of the rows' CPUs)",
	"verdict.busy_rounds":    " (%d of %d rounds measured busy: not counted)",
	"verdict.unstable":       "UNSTABLE: reproduced in %d of %d rounds (median rows: %s) — the figure straddles the tolerance here; rerun on a quieter machine, or with more RUNS",
	"source.article":         "article %s",
	"source.repo":            "author's repo",
	"source.guide":           "Node.js guide",
	"source.ours":            "ours",
	"source.unknown":         "article",

	// The bench table (internal/harness/result: Result.Print).
	"bench.not_pinned":           "not pinned (shares all CPUs with the driver)",
	"bench.load_pinned":          "load from CPU %v (the bench's driver CPUs); the service's CPUs are as you started it",
	"bench.pinned":               "server pinned to CPU %v with GOMAXPROCS=%d, databases on %v, driver on %v",
	"bench.head_service":         "\n%s   (%d CPUs, %s)\n",
	"bench.head":                 "\nstep %d — %s   (%d CPUs, %s)\n",
	"bench.stack":                "  stack: %s\n",
	"bench.stack_native":         "native (private PostgreSQL/Redis/MongoDB from local binaries, loopback round trips)",
	"bench.stack_compose":        "compose (databases in Docker containers: each round trip also crosses Docker's port proxy)",
	"bench.stack_compose_bench":  "compose-bench (server, databases and driver each in a Docker container, on Docker's network)",
	"bench.stack_none":           "none (this step needs no database)",
	"bench.latency":              ", + %.2f ms per PostgreSQL/Redis round trip (LATENCY)",
	"bench.spread_col":           "req/s spread\t",
	"bench.rounds":               "  %d interleaved rounds: each row is its %s round by req/s; the spread is the rounds' min–max\n",
	"bench.fastest":              "fastest",
	"bench.median":               "median",
	"bench.header_rate":          "variant\troute\ttool\tVUs\treq/s\t",
	"bench.header_costs":         "p50 ms\tp95 ms\tp99 ms\terrors\tKB/req\tDB q/req\tRedis B/req\tserver µs/req\tserver busy\tclient µs/req\tclient busy\t",
	"bench.busy_many":            "  (server busy = req/s × server µs/req: 100%% is one CPU busy, %d%% all %d of the server's)\n",
	"bench.busy_one":             "  (server busy = req/s × server µs/req on its one CPU: under ~90% the server was waiting, not working)\n",
	"bench.first_error":          "  first error in %s: %s\n",
	"bench.claims":               "\nthe claims beside ours (each says whose it is):\n",
	"bench.claim":                "  %-3s %s:  %s\n      measured:  %s\n      verdict:   %s\n",
	"bench.claim_tolerance":      "      tolerance: %s\n",
	"bench.claim_tolerance_more": "                 %s\n",
	"bench.client_bound_rows":    "      client-bound: %s — a rate measured there is the load tool's limit, not the server's\n",
	"bench.note":                 "  note: %s\n",
	"bench.numbers":              "", // English marks need no saying; Vietnamese says its own once

	// A result's notes: stored in English, printed in the run's language
	// (Restate finds the message again from the stored sentence).
	"note.quick":   "QUICK=1: a few seconds per variant — a smoke test, not a measurement",
	"note.latency": "LATENCY: %.2f ms added to every PostgreSQL and Redis round trip of the server (a delaying proxy process between them)",
	"note.skipped": "the rows of %s skipped: that server did not start (%s)",
	// Step 6's note on each write row: the whole line, one key per part it has.
	"note.write_row":          writeRow,
	"note.write_row_bulk":     writeRow + writeBulk,
	"note.write_row_cpu":      writeRow + writeCPU,
	"note.write_row_bulk_cpu": writeRow + writeBulk + writeCPU,
	"note.counters_lost":      "%s: lost %.0f acknowledged increments — the server acknowledged %.0f as written, its counters at MongoDB gained %.0f",
	"rule.client_bound":       "client-bound = the load tool used ≥ %.0f%% of its CPUs while the server used < %.0f%% of its own: that req/s is the tool's limit, not the server's",
	"rule.tool_limit": "a claim judged on rates is not judged when the load tool limited one of its rows: client-bound " +
		"(the tool used ≥ %.0f%% of its CPUs while the server used < %.0f%%), or sharing the databases' CPUs " +
		"(a row with ≥ %.1f DB queries or Redis GETs per request, the server < %.0f%% busy, the tool ≥ %.0f%% of the CPUs it shares with the databases), " +
		"or a row read as the server's ceiling with the server < %.0f%% busy; count-based claims keep their verdicts",
	"rule.others": "other processes took this share of each row's CPUs: %s; from %.0f%%, a claim judged on that row's rate is not judged",
	"rule.busy": "a claim judged on rates is not judged when other processes took ≥ %.0f%% of the CPUs of one of its rows (the server's, the load tool's, the databases'); " +
		"with rounds, a busy round counts neither way; count-based claims keep their verdicts",
	"rule.shared_cpu": "the load tool shares its CPUs with the databases and used a real share of them in %s: a database-bound req/s there is lower than a lighter tool would measure (from %.0f%%, a claim judged on it is not judged)",

	// Hints and progress (cmd/workshop/progress.go).
	"hint.no_exercise":     "step %d has no exercise, so no hints: read %s/README.md and run `make step-%d bench`\n",
	"hint.none":            "step %d has no hints yet: the TODO in %s/exercise.go and the README are all there is; `make step-%d diff` shows the reference\n",
	"hint.head":            "step %d — hint %d of %d:\n",
	"hint.last":            "that was the last hint: `make step-%d diff` shows the reference beside your code\n",
	"progress.header":      "step\texercise\thints\tlast bench",
	"progress.to_do":       "to do",
	"progress.solved":      "solved",
	"progress.changed":     "changed since its check passed",
	"progress.hints":       "%d of %d",
	"progress.footer":      "\n(solved = `make step-N check` passed on exercise.go exactly as it is now, now or in an earlier try; kept in .workshop/progress/)\n",
	"progress.no_bench":    "none yet (make step-%d bench)",
	"progress.unreadable":  "unreadable: %v",
	"progress.yours":       "your code",
	"progress.reference":   "the reference",
	"progress.the_step":    "the step",
	"progress.date":        "Jan 2 15:04", // a Go time layout
	"progress.md_head":     "### Workshop progress — %s (%.12s)\n\n| step | exercise | hints | last bench |\n|---|---|---|---|\n",
	"progress.md_footnote": "\nsolved = `make step-N check` passed on exercise.go exactly as it is now, now or in an earlier try; kept in .workshop/progress/\n",

	// Reset (cmd/workshop/reset.go).
	"reset.no_exercise":  "step %d has no exercise to reset\n",
	"reset.untouched":    "%s is already untouched\n",
	"reset.kept":         "your %s is kept in %s\n",
	"reset.back":         "%s is back as shipped (its TODO); `make step-%d check` fails until you solve it again\n",
	"reset.modules_back": "%s are back as committed: the modules your `go get` added are no longer required (they stay in the module cache, so `go get` works again offline)\n",
	"words.and":          " and ",

	// The check (cmd/workshop/check.go).
	"check.start":        "step %d check, service-free tests first (go test -short -failfast %s)\n",
	"check.fix_first":    "(fix this first; `make step-%d watch` re-runs the check on every save)",
	"check.services":     "they pass; now the %d that need services: %s\n",
	"check.services_one": "they pass; now the one that needs services: %s\n",
	"check.failed":       "step %d check failed: the first failure is above",
	"check.no_verdict":   "step %d check gave no verdict: a test above waited on the machine past its bound (see why above); run the check again",
	"check.passed":       "step %d check passed\n",
	"check.failed_short": "the check failed before any service was needed",
	"check.timed_out":    "%s timed out: after %s of real time the goroutines had neither settled (all waiting) nor finished. The machine may be overloaded, and this is no verdict on your code; or a goroutine never waits (see below: running = a loop that spins) or sleeps that long.",
	"check.awaited":      "It waited for: %s.",
	"check.stalled":      "%s stopped waiting: after %s of real time it still had not seen %s. A right answer gives it in milliseconds, so the machine most likely stalled (overloaded): this is no verdict on your code; run the check again.",
	"check.skipped":      "--- SKIP: %s: %s (this test checked nothing in this run)\n",
	"check.unfinished":   "--- FAIL: %s: the test never finished: its watchdog or a crash ended the test binary while it ran (what it said is below)\n",

	// The watchdog of a check in a synctest bubble (internal/harness/bubble).
	"bubble.timed_out":       "%s did not finish within %s of real time: the machine may be overloaded, or the bubble's fake clock could not move (testing/synctest moves it only when every goroutine waits on a channel, a timer or a WaitGroup).",
	"bubble.goroutines_head": "What the goroutines of the step's code were doing (stacks trimmed to %s):",
	"bubble.goroutine":       "  %s [%s]:",
	"bubble.no_goroutine":    "No goroutine was in the step's code: it was all in the runtime or the testing package.",
	"bubble.on_mutex":        "blocked on a mutex (sync.Mutex or RWMutex): synctest does not count that as waiting, so a lock held across a write that is stuck freezes the clock",
	"bubble.on_channel":      "blocked on a channel or a select",
	"bubble.on_io":           "in a system call or waiting on I/O",
	"bubble.running":         "running without ever waiting: a loop that spins",
	"bubble.sleeping":        "sleeping (time.Sleep)",
	"bubble.on_waitgroup":    "waiting on a sync.WaitGroup",
	"bubble.on_other":        "waiting",

	// Steps, diff, run (cmd/workshop/steps.go).
	"step.bad_flag":     "-step %q: want a step's number (2) or directory (02-cache-aside)",
	"step.no_dir":       "-step %q: no such directory; step %d is %s",
	"step.whole_lesson": "… the whole lesson: %s\n\n",
	"step.commands":     "commands, one per line:\n",
	"step.bad_solution": "SOLUTION=%q: want 1 (the reference) or 0 (your code)",
	"diff.no_exercise":  "step %d has no exercise to compare\n",
	"diff.head":         "%s/exercise.go (-) against %s (+):\n\n",
	"diff.same":         "(no difference: your exercise matches the reference)\n",
	"run.ctrl_c":        "Ctrl-C stops the server (graceful) and the services this command started\n",

	// make doctor (cmd/workshop/doctor.go).
	"doctor.go":           "  ok       %-13s %s (go.mod needs ≥ 1.25: the checks run their timers on testing/synctest)\n",
	"doctor.optional":     "  optional %-13s %s\n           %13s %s\n",
	"doctor.missing":      "  MISSING  %-13s %s\n           %13s %s\n",
	"doctor.no_mongod":    "           no mongod: FerretDB serves the wire protocol, so absolute write figures differ from MongoDB's;\n           PEAKLOAD_MONGO_BACKEND=postgresql|sqlite picks its storage (default %s; steps/06-buffered-writes/README.md says why)\n",
	"doctor.pinned":       "  CPUs:    server pinned to CPU %v (GOMAXPROCS=1), databases on %v, driver on %v\n",
	"doctor.pinned_wide":  "           step 8's server gets CPUs %v (GOMAXPROCS=%d): its speed-up is bounded by that count\n",
	"doctor.not_pinned":   "  CPUs:    no pinning here (one CPU, or not Linux): ratios hold, absolute figures are noisier\n",
	"doctor.root":         "  root:    PostgreSQL runs as the 'postgres' user; missing apt packages are installed on first use (or: make deps)\n",
	"doctor.node":         "  originals: ORIGINAL=1 measures the sources' own stacks (originals/) beside yours; without them their rows are skipped with a note\n",
	"doctor.node_ok":      "           Node.js %s (≥ %d needed): %s\n",
	"doctor.node_old":     "           Node.js %s at %s is older than %d: install a newer one (Debian 12+/Ubuntu 24.04: sudo apt-get install -y nodejs npm)\n",
	"doctor.no_node":      "           no Node.js: make deps (as root), or sudo apt-get install -y nodejs npm\n",
	"doctor.modules":      "           packages: %s installed (the versions originals/package-lock.json pins)\n",
	"doctor.no_modules":   "           packages: %s missing — make prefetch-originals (npm ci)\n",
	"doctor.bun":          "           Bun %s, from the npm package (article D's Elysia runs on it)\n",
	"doctor.no_bun":       "           no Bun (article D's Elysia runs on it) — make prefetch-originals installs it with the other packages\n",
	"doctor.no_originals": "           no originals/package.json above %s: run make from the repository's root\n",
	"doctor.chromium":     "  chromium: %s (make handout prints the slide decks to PDF with it)\n",
	"doctor.no_chromium":  "  chromium: none — only `make handout` needs it: %s\n",
	"doctor.ports":        "  ports:   PostgreSQL %d, Redis %d, MongoDB %d on %s (PEAKLOAD_*_PORT to change)\n",
	"doctor.catalog":      "  catalog: %d items; %.0f%% of reads on %d live streams (Zipf s=%.1f); clock ×%.0f\n",
	"doctor.running":      "  running: %s (started by the workshop; `make down` stops them)\n",
	"doctor.some_missing": "%d required tool(s) missing: install them as shown (or, as root on Debian/Ubuntu, `make deps`)\n",
	"doctor.all_here":     "everything required is here: `make step-1 bench`\n",

	// The stack's messages (internal/harness/stack).
	"stack.port_taken":         "port %d on %s is already taken by another program, not the workshop's %s; stop it, or pick another port with PEAKLOAD_%s_PORT",
	"stack.port_taken_compose": "port %d on %s is already taken by another program; stop it, or pick another port with PEAKLOAD_%s_PORT",
	"up.psql":                  "PostgreSQL is up; to query it yourself: psql '%s'\n",
	"stack.started":            "started %s on %s:%d (%s)",
	"stack.stopped":            "stopped %s",
	"stack.compiling":          "compiling the MongoDB stand-in (FerretDB, cmd/mongo) into %s: 1–3 minutes the first time, once",
	"stack.still_compiling":    "  … still compiling FerretDB (%.0f s)",
	"stack.compiled":           "compiled FerretDB in %.0f s",
	"stack.not_ready":          "%s did not become ready within %s",
	"stack.installing":         "%s is missing: installing apt package %s",
	"stack.not_installed":      "%s is not installed (%s). Install it: %s",

	// The bench command's own lines (cmd/workshop/bench.go).
	"bench.start":            "step %d — %s: %d VUs, %s per variant after a %s warm-up, %d round(s) (server log: %s)\n",
	"bench.round":            "round %d of %d\n",
	"bench.wrote":            "\nwrote %s\n  each run over time: make report; beside another run of the step: make compare A=<that file> B=%s\n",
	"bench.unrecorded":       "\nstep %d has no reference run yet: with SOLUTION=1, copy %s to results/reference/step-%d.json, drop Unrecorded from step %d's entry (internal/harness/course/steps.go), then make agenda STEP=%[1]d (the guide's timing, which make docs needs) and make docs\n",
	"bench.bad_count":        "%s=%q: want a positive integer",
	"bench.bad_duration":     "DURATION=%q: want a duration like 10s",
	"bench.bad_tool":         "unknown TOOL=%q (want go, wrk or k6)",
	"config.bad_port":        "%s=%q: want a port number from 1 to 65535",
	"config.bad_variable":    "%s=%s: %v",
	"config.bad_runs":        "RUNS=%q: want a number of rounds from 1 to 20",
	"config.bad_arrival":     "ARRIVAL=%q: want rate (an open loop at RATE req/s) or closed",
	"config.rate_needs_open": "RATE is the open loop's schedule: add ARRIVAL=rate",
	"config.bad_rate":        "ARRIVAL=rate needs RATE=<requests per second>, got RATE=%q",
	"config.bad_server_url":  "PEAKLOAD_SERVER_URL=%q: want http://host:port",
	"config.bad_backend":     "PEAKLOAD_MONGO_BACKEND=%q: want postgresql or sqlite",
	"build.compiling":        "compiling %s into %s (the first time takes a while)…\n",
	"build.compiled":         "compiled %s in %.0f s\n",

	"doctor.head":  "peakload doctor — %s/%s, %d CPUs, %s\n\n",
	"doctor.stack": "  stack:   STACK=%s → %s (Docker engine answering: %v)\n",

	// The stack's errors, and what each tool is for (internal/harness/stack).
	"stack.no_postgres_user": "running as root, PostgreSQL must run as the 'postgres' user, which does not exist (install the postgresql package, or run as a normal user)",
	"stack.bad_backend":      "PEAKLOAD_MONGO_BACKEND=%q: want postgresql or sqlite",
	"stack.ferret_database":  "FerretDB's database on PostgreSQL (is PostgreSQL up? `make up`)",
	"stack.mongod_local":     "mongod (local binary)",
	"stack.no_backend":       "none: PEAKLOAD_MONGO_BACKEND=%q is neither postgresql nor sqlite",
	"stack.ferret_on":        "FerretDB 1.24 on %s",
	"stack.bad_kind":         "unknown STACK=%q (want auto, native or compose)",
	"stack.start_failed":     "start %s (%s)",
	"tool.initdb":            "PostgreSQL for the read path (native stack)",
	"tool.pg_ctl":            "starts/stops the private PostgreSQL",
	"tool.redis-server":      "Redis for the cache steps (native stack)",
	"tool.haproxy":           "the load balancer in front of step 10's replicas",
	"tool.wrk":               "reference load tool: step 0 compares our driver with it",
	"tool.mongod":            "real MongoDB; without it the embedded FerretDB speaks the wire protocol",
	"tool.dot":               "draws pprof call graphs (step 8); pprof's web UI works without it",
	"tool.k6":                "runs k6/*.js (TOOL=k6); see https://grafana.com/docs/k6/latest/set-up/install-k6/",
	"tool.docker":            "STACK=compose (needs a running engine)",
	"tool.node":              "runs the sources' own stacks (ORIGINAL=1: Fastify, Express, Koa; Node ≥ 18) and syntax-checks the k6 scripts",
	"tool.npm":               "installs the originals' pinned packages (make prefetch-originals)",
	"tool.not_packaged":      "not packaged here; optional",
	"tool.not_found":         "%s not found",
	"doctor.ok":              "  ok       %-13s %s\n",
	"doctor.mongo":           "  MongoDB: %s\n",
	"deps.nothing":           "nothing to install\n",
	"deps.yourself":          "install these yourself (needs root and apt-get): sudo apt-get install -y %s   — on macOS see `make doctor`",
	"deps.installing":        "installing: %s\n",
	"deps.then_prefetch":     "Node.js and npm are installed; `make prefetch-originals` installs the originals' packages (ORIGINAL=1)\n",

	// Why a stack was chosen (internal/harness/stack: Config.Choice).
	"stack.why_given":     "STACK=given: the databases were started by someone else (the Compose bench profile's containers); waited for, never started or stopped",
	"stack.why_up":        "STACK=auto, and the %s stack is already up (make down to change)",
	"stack.why_native":    "STACK=auto: PostgreSQL and Redis are installed here, so they run natively (STACK=compose for containers)",
	"stack.why_compose":   "STACK=auto: no native PostgreSQL/Redis here and a Docker engine answers, so the databases run in containers; their round trips cross Docker's proxy (and Docker Desktop's VM): absolute figures differ from a native run, ratios and verdicts should not (STACK=native after `make deps` to compare)",
	"stack.why_no_docker": "STACK=auto: no Docker engine answers, so the native stack is used (missing binaries are installed or named)",

	// Seeding the catalogue, once (internal/given/catalog).
	"seed.start":    "seeding %d items, %d streamers, %d views (once; later runs reuse it)…",
	"seed.copying":  "  %-10s %9d rows  copying…",
	"seed.table":    "  %-10s %9d rows  %5.1fs",
	"seed.indexing": "  indexes + analyze        …",
	"seed.indexed":  "  indexes + analyze        %5.1fs",
	"seed.done":     "seeded in %.1fs",

	// make compare (cmd/workshop/compare.go, internal/harness/comparison).
	"verdict.unstable_word": "UNSTABLE",
	"compare.need_both":     "compare two runs with both A=<results file> and B=<results file> (e.g. A=results/reference/step-2.json B=results/step-2/latest.json)",
	"compare.other_step":    "A is a run of step %d, B of step %d: compare two runs of one step",
	"compare.not_results":   "%s is not a results file",
	"compare.no_runs":       "%s has no runs: a results file is results/step-N/<time>.json or results/reference/step-N.json",
	"compare.latest_header": "step\tclaim\tverdict\tmeasured\twhen",
	"compare.no_result":     "%d %s\t-\tno result\tmake step-%d bench\t\n",
	"compare.head":          "step %d — %s\n",
	"compare.differ":        "  note: A and B differ in %s\n",
	"compare.only_in":       "(only in %s)",
	"compare.few_rounds":    "\n¹ fewer than %d rounds on a side: the change is what was measured, but no test can tell it from noise\n  (benchmath's U-test needs ≥ %d rounds per side for p < 0.05). Bench both with RUNS=%d or more, e.g.\n  %s\n",
	"compare.legend":        "\n~: p > %.2f, these rounds cannot tell the change from noise; n = rounds per side (A+B when they differ). A and B are medians over the rounds, ± their 95%% interval when the rounds are enough for one.\n",
	"compare.describe":      "%d round(s), %d CPUs, %s stack",
	"compare.claims":        "\nthe claims, A beside B:\n",
	"compare.measured":      "          %s measured: %s\n",
	"err.step":              "step %d",
	"compare.machine":       "machine (%d × %s → %d × %s)",
	"compare.stack":         "stack (%s → %s)",

	// make compare DIR=<folder>: a lead's folder, one table per step, one
	// row per person (cmd/workshop/compare.go, internal/harness/comparison/folder.go).
	"compare.folder_empty":    "%s holds no results files (results/step-N/*.json, one subfolder per person)",
	"compare.folder_step":     "step %d — %s",
	"compare.folder_head":     "\n%s: %d run(s)\n",
	"compare.folder_legend":   "\n(✓ reproduced, ✗ not, – not measured; each claim's tolerance is in its step's README; a person is the results' \"who\", else the first folder under %s)\n",
	"compare.progress_head":   "progress: one row per person (make progress FORMAT=json, or the CI artifact)\n",
	"compare.progress_header": "person\tcommit\twhen\tsolved\tto do",
	"compare.col_person":      "person",
	"compare.col_when":        "when",
	"compare.col_code":        "code",
	"compare.col_rounds":      "rounds",
	"compare.col_fastest":     "fastest row req/s",
	"compare.theirs":          "theirs",
	"compare.reference":       "reference",
	"compare.not_judged":      "not judged",
	"progress.bad_format":     "FORMAT=%q: want text, json or markdown",
}
