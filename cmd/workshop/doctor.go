package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/chromium"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/stack"
)

// runDoctor reports what is present and missing, with the command to fix each.
func runDoctor(_ context.Context, cfg config.Config, _ []string) error {
	c := cfg.Stack
	fmt.Print(messages.T("doctor.head", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version()))
	// go.mod says go 1.25: the checks' timers run on testing/synctest's
	// fake clock, which Go 1.25 made stable. An older go refuses to build.
	fmt.Print(messages.T("doctor.go", "go", runtime.Version()))
	missing := 0
	for _, t := range stack.Tools {
		path, err := stack.LookPath(t.Name)
		switch {
		case err == nil:
			fmt.Print(messages.T("doctor.ok", t.Name, path))
		case t.Optional:
			fmt.Print(messages.T("doctor.optional", t.Name, t.Why(), "", t.Hint()))
		default:
			missing++
			fmt.Print(messages.T("doctor.missing", t.Name, t.Why(), "", t.Hint()))
		}
	}
	fmt.Println()
	kind := c.ResolveKind()
	fmt.Print(messages.T("doctor.mongo", c.MongoDescription(kind, messages.Current())))
	if _, err := stack.LookPath("mongod"); err != nil && kind == "native" {
		fmt.Print(messages.T("doctor.no_mongod", stack.DefaultMongoBackend))
	}
	engine := messages.T("doctor.engine_down")
	if stack.DockerEngine() {
		engine = messages.T("doctor.engine_up")
	}
	fmt.Print(messages.T("doctor.stack", c.Kind, kind, engine))
	plan := proc.PlanCPUs(cfg.NoPin)
	if plan.Pinned {
		fmt.Print(messages.T("doctor.pinned", plan.Server, plan.Services, plan.Driver))
		fmt.Print(messages.T("doctor.pinned_wide", plan.Wide().Server, plan.Wide().Procs()))
	} else {
		fmt.Print(messages.T("doctor.not_pinned"))
	}
	if os.Geteuid() == 0 {
		fmt.Print(messages.T("doctor.root"))
	}
	doctorOriginals()
	if path, err := chromium.Find(); err == nil {
		fmt.Print(messages.T("doctor.chromium", path))
	} else {
		fmt.Print(messages.T("doctor.no_chromium", chromium.Hint()))
	}
	p := params.Load()
	fmt.Print(messages.T("doctor.ports", c.PGPort, c.RedisPort, c.MongoPort, c.Host))
	fmt.Print(messages.T("doctor.catalog", p.Catalog.Items, p.Catalog.HotShare*100, p.Catalog.HotItems, p.Catalog.ZipfS, p.Clock.Scale))
	if started := stack.Started(c); len(started) > 0 {
		fmt.Print(messages.T("doctor.running", strings.Join(started, ", ")))
	}
	fmt.Println()
	if missing > 0 {
		fmt.Print(messages.T("doctor.some_missing", missing))
		return nil
	}
	fmt.Print(messages.T("doctor.all_here"))
	return nil
}

// doctorOriginals reports what ORIGINAL=1 needs: Node.js ≥ MinNode, the
// packages originals/package-lock.json pins, and Bun (article D's runtime,
// which the npm package "bun" brings) — each with the command that fixes it.
// None is required: without them the originals' rows are skipped.
func doctorOriginals() {
	fmt.Print(messages.T("doctor.node"))
	if node, err := exec.LookPath("node"); err != nil {
		fmt.Print(messages.T("doctor.no_node"))
	} else if v, err := original.NodeVersion(node); err != nil {
		fmt.Print(messages.T("doctor.node_old", "?", node, original.MinNode))
	} else if _, err := original.NodeBinary(); err != nil {
		fmt.Print(messages.T("doctor.node_old", v, node, original.MinNode))
	} else {
		fmt.Print(messages.T("doctor.node_ok", v, original.MinNode, node))
	}
	root, err := original.Root()
	if err != nil {
		wd, _ := os.Getwd()
		fmt.Print(messages.T("doctor.no_originals", wd))
		return
	}
	modules := filepath.Join(original.Dir, "node_modules")
	if _, err := os.Stat(filepath.Join(root, modules)); err != nil {
		fmt.Print(messages.T("doctor.no_modules", modules))
	} else {
		fmt.Print(messages.T("doctor.modules", modules))
	}
	if v, ok := original.Versions(root)[original.Bun]; ok {
		fmt.Print(messages.T("doctor.bun", v))
	} else {
		fmt.Print(messages.T("doctor.no_bun"))
	}
}

// runDeps installs the Debian/Ubuntu packages the workshop uses.
func runDeps(_ context.Context, cfg config.Config, _ []string) error {
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
		fmt.Print(messages.T("deps.nothing"))
		return nil
	}
	if _, err := exec.LookPath("apt-get"); err != nil || os.Geteuid() != 0 {
		return errors.New(messages.T("deps.yourself", strings.Join(pkgs, " ")))
	}
	fmt.Print(messages.T("deps.installing", strings.Join(pkgs, " ")))
	if err := stack.AptInstall(pkgs...); err != nil {
		return err
	}
	if slices.Contains(pkgs, "npm") {
		// Debian's npm brings Node's packages, not the originals': those
		// come from the lockfile, with versions pinned.
		fmt.Print(messages.T("deps.then_prefetch"))
	}
	return nil
}
