// Package config is the CLI's settings, read once from the environment
// into one typed Config, which both commands use (cmd/workshop, the
// learner's and instructor's; cmd/workshop-dev, the maintainer's). The
// Makefile passes its variables (VUS=200, TOOL=wrk…) as environment
// variables; reading them here, once, means a bad value is said at once,
// naming the variable, whatever the verb.
//
// This is one of the tree's two readers of the environment, the CLI
// process's; the step server, a process of its own that links none of the
// harness, has the other (internal/given/serverenv). TestOnlyTheConfigurationsReadTheEnvironment
// holds every other file to them.
package config

import (
	"cmp"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/given/dbaddr"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/serverenv"
	"github.com/peakload/workshop/internal/harness/latency"
	"github.com/peakload/workshop/internal/harness/stack"
)

// Config is every setting a verb reads from the environment. A zero field
// means "not set": the verb uses the step's or internal/given/params' default.
type Config struct {
	Solution   bool          // SOLUTION=1: the reference solution instead of the learner's exercise
	Quick      bool          // QUICK=1: a few seconds per variant, a smoke test
	Original   bool          // ORIGINAL=1: the sources' own stacks (originals/) measured beside the Go rows
	VUs        int           // VUS: concurrent users of the closed loop
	Iterations int           // ITERATIONS: requests per variant instead of a duration
	Duration   time.Duration // DURATION: the timed window per variant
	Runs       int           // RUNS: interleaved rounds, 1–20
	Tool       string        // TOOL: "" or go (the Go driver), wrk, k6
	Arrival    string        // ARRIVAL: "" or closed, or rate (the open loop)
	Rate       float64       // RATE: the open loop's requests per second
	Capacity   bool          // CAPACITY=1: each row's capacity after the table
	Latency    string        // LATENCY: delay per database round trip, as written (0.2ms)
	Variant    string        // VARIANT: the row `make step-N profile` loads
	// ServerURL is PEAKLOAD_SERVER_URL: a step server someone else runs
	// (the Compose bench profile's app container); "" when the bench starts its own.
	ServerURL string
	// WorkerElsewhere is PEAKLOAD_WORKER=external: a worker container
	// changes the live stats already, and a second one would double their rate.
	WorkerElsewhere bool
	// MongoURL is STACK=given's PEAKLOAD_MONGO_URL, recorded in the results
	// ("" on the workshop's own stack, whose address says nothing).
	MongoURL string
	// Stack is where the databases are and how they are run (STACK,
	// PEAKLOAD_DIR, the ports, PEAKLOAD_MONGO_BIN…): internal/harness/stack.Parse reads those.
	Stack stack.Config
	// ServerAddr is PEAKLOAD_ADDR: where `make step-N run` serves, and says
	// it does (the step server reads the same variable in its own
	// configuration, internal/given/serverenv).
	ServerAddr string
	// ResultsDir is PEAKLOAD_RESULTS, else results/: where results files go
	// (test-latency and the tests set it, to keep their runs apart).
	ResultsDir string
	K6         string        // K6: the k6 binary for TOOL=k6, a path or a name on PATH ("" is k6)
	NoPin      bool          // PEAKLOAD_NO_PIN=1: no CPU split between the server and the load
	Lang       messages.Lang // PEAKLOAD_LANG, else LANG: the language every line is said in
	// Seed is PEAKLOAD_SEED, the seed a generated test replays (Replay: it
	// is set); internal/harness/testseed hands it to the tests.
	Seed   uint64
	Replay bool
	// Verbs are the team verbs' make variables, their flags' defaults.
	Verbs Verbs
}

// Verbs are the make variables the team verbs take as their flags'
// defaults (make probe URL=… REQUESTS=…, make audit COLD_N=20…), as typed:
// the verb's flag set applies them, and the command line wins. The ones
// that are not text (a count, a duration, a switch) are checked here with
// the flags' own parsers, so a bad one is said whatever the verb.
type Verbs struct {
	URL, Metrics, AllowRemote string // probe's and audit's -url, -metrics, -allow-remote
	Requests, PerRequest      string // probe's -requests, -per-request
	Post, Cold, Change        string // audit's -post, -cold, -change
	Queries, Body             string // audit's -queries, -body
	ColdN, Slowloris, Burst   string // audit's -n, -slowloris, -burst
	BurstPost                 string // audit's -burst-post
	GradeBase, GradeSteps     string // grade's -base, -steps
	Summary                   string // GITHUB_STEP_SUMMARY: grade's -summary
	Format                    string // FORMAT: progress's -format
	Ref                       string // REF: report's -ref
	// Who ran progress, after git's user.name: GITHUB_ACTOR, then USER.
	Actor, User string
}

// FromEnv reads the settings; an error names the variable and the value.
// A command calls it once, first, and says its words in c.Lang
// (messages.Use); a test reading the stack's part leaves its language be.
func FromEnv() (Config, error) { return parse(os.Getenv) }

// Names are the variables FromEnv reads: a test holds the Makefile's
// exports against them.
func Names() []string {
	var names []string
	_, _ = parse(func(name string) string { names = append(names, name); return "" })
	return names
}

func parse(env func(string) string) (Config, error) {
	lang := messages.Asked(env)
	defer messages.Use(lang)() // the errors below, in the language the reader asked for
	c := Config{Tool: env("TOOL"), Arrival: env("ARRIVAL"), Latency: env("LATENCY"), Variant: env("VARIANT"),
		ServerURL:       strings.TrimRight(env("PEAKLOAD_SERVER_URL"), "/"),
		WorkerElsewhere: env("PEAKLOAD_WORKER") == "external",
		ResultsDir:      cmp.Or(env("PEAKLOAD_RESULTS"), "results"), K6: env("K6"),
		Lang: lang, Verbs: verbs(env)}
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	var err error
	for name, to := range map[string]*bool{"QUICK": &c.Quick, "CAPACITY": &c.Capacity, "ORIGINAL": &c.Original, "PEAKLOAD_NO_PIN": &c.NoPin} {
		if *to, err = serverenv.Switch(env, name, false); err != nil {
			add(err)
		}
	}
	if c.Stack, err = stack.Parse(env); err != nil {
		add(err)
	}
	if c.Stack.Kind == stack.Given {
		c.MongoURL = c.Stack.Named.MongoURL
	}
	if c.Solution, err = ParseSolution(env("SOLUTION")); err != nil {
		add(err)
	}
	if c.VUs, err = serverenv.Count(env, "VUS"); err != nil {
		add(err)
	}
	if c.Iterations, err = serverenv.Count(env, "ITERATIONS"); err != nil {
		add(err)
	}
	if c.Duration, err = duration(env("DURATION")); err != nil {
		add(err)
	}
	if v := env("RUNS"); v != "" {
		if c.Runs, err = strconv.Atoi(v); err != nil || c.Runs < 1 || c.Runs > 20 {
			add(errors.New(messages.T("config.bad_runs", v)))
		}
	}
	switch c.Tool {
	case "", "go", "wrk", "k6":
	default:
		add(errors.New(messages.T("bench.bad_tool", c.Tool)))
	}
	add(c.parseArrival(env("RATE")))
	if _, err := latency.Parse(c.Latency); err != nil {
		add(err)
	}
	if c.ServerURL != "" && !strings.HasPrefix(c.ServerURL, "http://") {
		add(errors.New(messages.T("config.bad_server_url", c.ServerURL)))
	}
	if c.ServerAddr, err = dbaddr.ParseServerAddr(env("PEAKLOAD_ADDR")); err != nil {
		add(err)
	}
	if v := env("PEAKLOAD_SEED"); v != "" {
		if c.Seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			add(errors.New(messages.T("config.bad_seed", v)))
		}
		c.Replay = err == nil
	}
	add(c.Verbs.check())
	return c, errors.Join(errs...)
}

// verbs reads the team verbs' variables, as typed.
func verbs(env func(string) string) Verbs {
	return Verbs{URL: env("URL"), Metrics: env("METRICS"), AllowRemote: env("ALLOW_REMOTE"),
		Requests: env("REQUESTS"), PerRequest: env("PER_REQUEST"),
		Post: env("POST"), Cold: env("COLD"), Change: env("CHANGE"), Queries: env("QUERIES"), Body: env("BODY"),
		ColdN: env("COLD_N"), Slowloris: env("SLOWLORIS"), Burst: env("BURST"), BurstPost: env("BURST_POST"),
		GradeBase: env("GRADE_BASE"), GradeSteps: env("GRADE_STEPS"), Summary: env("GITHUB_STEP_SUMMARY"),
		Format: env("FORMAT"), Ref: env("REF"), Actor: env("GITHUB_ACTOR"), User: env("USER")}
}

// check parses the variables that are not text with their flags' parsers
// (flag.BoolVar's, IntVar's, DurationVar's): ALLOW_REMOTE=yes or
// SLOWLORIS=soon is said at once, naming the variable.
func (v Verbs) check() error {
	var errs []error
	bad := func(key, name, value string, err error) {
		if value != "" && err != nil {
			errs = append(errs, errors.New(messages.T(key, name, value)))
		}
	}
	for _, b := range [][2]string{{"ALLOW_REMOTE", v.AllowRemote}, {"BURST_POST", v.BurstPost}, {"REF", v.Ref}} {
		_, err := strconv.ParseBool(b[1])
		bad("config.bad_bool", b[0], b[1], err)
	}
	if n, err := strconv.ParseInt(v.ColdN, 0, 64); v.ColdN != "" && (err != nil || n < 1) {
		errs = append(errs, errors.New(messages.T("bench.bad_count", "COLD_N", v.ColdN)))
	}
	for _, d := range [][2]string{{"SLOWLORIS", v.Slowloris}, {"BURST", v.Burst}} {
		_, err := time.ParseDuration(d[1])
		bad("config.bad_flag_duration", d[0], d[1], err)
	}
	switch v.Format {
	case "", "text", "json", "markdown":
	default:
		errs = append(errs, errors.New(messages.T("config.bad_choice", "FORMAT", v.Format, "text, json, markdown")))
	}
	return errors.Join(errs...)
}

// parseArrival reads ARRIVAL and RATE: RATE belongs to the open loop alone.
func (c *Config) parseArrival(rate string) error {
	switch c.Arrival {
	case "", "closed":
		if rate != "" {
			return errors.New(messages.T("config.rate_needs_open"))
		}
		return nil
	case "rate":
	default:
		return errors.New(messages.T("config.bad_arrival", c.Arrival))
	}
	r, err := strconv.ParseFloat(rate, 64)
	if err != nil || r <= 0 {
		return errors.New(messages.T("config.bad_rate", rate))
	}
	c.Rate = r
	return nil
}

// ParseSolution is the one reading of SOLUTION: empty, 0 or false is the
// learner's code, 1 or true the reference; anything else is a mistake said
// at once rather than guessed (SOLUTION=0 was once recorded as a solution run).
func ParseSolution(v string) (bool, error) {
	if v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, errors.New(messages.T("step.bad_solution", v))
	}
	return on, nil
}

// duration reads DURATION as a Go duration (10s) or a number of seconds.
func duration(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	if d, err := time.ParseDuration(v); err == nil {
		return d, nil
	}
	s, err := strconv.ParseFloat(v, 64)
	if err != nil || s <= 0 {
		return 0, errors.New(messages.T("bench.bad_duration", v))
	}
	return time.Duration(s * float64(time.Second)), nil
}
