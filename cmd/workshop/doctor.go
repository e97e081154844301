package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/stack"
)

// runDoctor reports what is present and missing, with the command to fix each.
func runDoctor() error {
	c := stack.FromEnv()
	fmt.Printf("peakload doctor — %s/%s, %d CPUs, %s\n\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	// go.mod says go 1.25: the checks' timers run on testing/synctest's
	// fake clock, which Go 1.25 made stable. An older go refuses to build.
	fmt.Printf("  ok       %-13s %s (go.mod needs ≥ 1.25: the checks run their timers on testing/synctest)\n", "go", runtime.Version())
	missing := 0
	for _, t := range stack.Tools {
		path, err := stack.LookPath(t.Name)
		switch {
		case err == nil:
			fmt.Printf("  ok       %-13s %s\n", t.Name, path)
		case t.Optional:
			fmt.Printf("  optional %-13s %s\n           %13s %s\n", t.Name, t.Why, "", t.Hint())
		default:
			missing++
			fmt.Printf("  MISSING  %-13s %s\n           %13s %s\n", t.Name, t.Why, "", t.Hint())
		}
	}
	fmt.Println()
	kind := c.ResolveKind()
	fmt.Printf("  MongoDB: %s\n", c.MongoDescription(kind))
	if _, err := stack.LookPath("mongod"); err != nil && kind == "native" {
		fmt.Printf("           no mongod: FerretDB serves the wire protocol, so absolute write figures differ from MongoDB's;\n"+
			"           PEAKLOAD_MONGO_BACKEND=postgresql|sqlite picks its storage (default %s; steps/06-buffered-writes/README.md says why)\n", stack.DefaultMongoBackend)
	}
	fmt.Printf("  stack:   STACK=%s → %s (Docker engine answering: %v)\n", c.Kind, kind, stack.DockerEngine())
	plan := bench.PlanCPUs()
	if plan.Pinned {
		fmt.Printf("  CPUs:    server pinned to CPU %v (GOMAXPROCS=1), databases on %v, driver on %v\n", plan.Server, plan.Services, plan.Driver)
		fmt.Printf("           step 8's server gets CPUs %v (GOMAXPROCS=%d): its speed-up is bounded by that count\n", plan.Wide().Server, plan.Wide().Procs())
	} else {
		fmt.Println("  CPUs:    no pinning here (one CPU, or not Linux): ratios hold, absolute figures are noisier")
	}
	if os.Geteuid() == 0 {
		fmt.Println("  root:    PostgreSQL runs as the 'postgres' user; missing apt packages are installed on first use (or: make deps)")
	}
	if _, err := exec.LookPath("node"); err == nil {
		fmt.Println("  node:    present (make test syntax-checks the k6 scripts with it)")
	}
	if path, err := chromium(); err == nil {
		fmt.Printf("  chromium: %s (make handout prints the slide decks to PDF with it)\n", path)
	} else {
		fmt.Printf("  chromium: none — only `make handout` needs it: %s\n", chromiumHint())
	}
	p := params.Load()
	fmt.Printf("  ports:   PostgreSQL %d, Redis %d, MongoDB %d on %s (PEAKLOAD_*_PORT to change)\n", c.PGPort, c.RedisPort, c.MongoPort, c.Host)
	fmt.Printf("  catalog: %d items; %.0f%% of reads on %d live streams (Zipf s=%.1f); clock ×%.0f\n", p.Catalog.Items, p.Catalog.HotShare*100, p.Catalog.HotItems, p.Catalog.ZipfS, p.Clock.Scale)
	if started := stack.Started(c); len(started) > 0 {
		fmt.Printf("  running: %s (started by the workshop; `make down` stops them)\n", strings.Join(started, ", "))
	}
	fmt.Println()
	if missing > 0 {
		fmt.Printf("%d required tool(s) missing: install them as shown (or, as root on Debian/Ubuntu, `make deps`)\n", missing)
		return nil
	}
	fmt.Println("everything required is here: `make step-1 bench`")
	return nil
}

// runDeps installs the Debian/Ubuntu packages the workshop uses.
func runDeps() error {
	var pkgs []string
	for _, t := range stack.Tools {
		if _, err := stack.LookPath(t.Name); err == nil || t.Apt == "" || t.Name == "docker" {
			continue
		}
		if !strings.Contains(strings.Join(pkgs, " "), t.Apt) {
			pkgs = append(pkgs, t.Apt)
		}
	}
	if len(pkgs) == 0 {
		fmt.Println("nothing to install")
		return nil
	}
	if _, err := exec.LookPath("apt-get"); err != nil || os.Geteuid() != 0 {
		return fmt.Errorf("install these yourself (needs root and apt-get): sudo apt-get install -y %s   — on macOS see `make doctor`", strings.Join(pkgs, " "))
	}
	fmt.Println("installing:", strings.Join(pkgs, " "))
	return stack.AptInstall(pkgs...)
}
