package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/stack"
	"github.com/peakload/workshop/internal/harness/stepflag"
)

// Watching polls file sizes and modification times instead of waiting for
// file events: events do not arrive through WSL2's /mnt/c, network mounts
// or some editors' save-by-rename, a stat of a dozen files every half
// second costs nothing, and it needs no dependency.
const (
	pollEvery = 500 * time.Millisecond
	settle    = 300 * time.Millisecond // an editor's save is often several writes
)

// runWatch is `make step-N watch`: the check now, then again on every save
// of the step's files, until Ctrl-C — which also stops the services it
// started (once, at the first run that needed them).
func runWatch(ctx context.Context, cfg config.Config, args []string) (err error) {
	step, err := stepflag.Parse("watch", args)
	if err != nil {
		return err
	}
	sc := cfg.Stack
	var started []string
	up := false
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
	ensureUp := func() error {
		if up {
			return nil
		}
		s, uerr := upForStep(ctx, sc, step)
		started, up = s, uerr == nil
		return uerr
	}
	seen := snapshot(step.Dir())
	for {
		fmt.Fprint(os.Stderr, messages.T("watch.head", time.Now().Format("15:04:05"), step.N))
		cerr := checkWith(ctx, cfg, step, ensureUp)
		recordCheck(cfg, step.Manifest, cerr == nil)
		if ctx.Err() != nil {
			return nil
		}
		if cerr != nil {
			fmt.Fprintf(os.Stderr, "✗ %v\n", cerr)
		} else {
			fmt.Fprint(os.Stderr, messages.T("watch.solved", step.N))
		}
		fmt.Fprint(os.Stderr, messages.T("watch.waiting", step.Dir()))
		var ok bool
		if seen, ok = waitForChange(ctx, step.Dir(), seen); !ok {
			fmt.Fprintln(os.Stderr)
			return nil
		}
	}
}

// waitForChange polls dir until its files change and then stay unchanged
// for settle; it returns the new snapshot, or false when ctx ends.
func waitForChange(ctx context.Context, dir string, seen map[string]string) (map[string]string, bool) {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return seen, false
		case <-t.C:
		}
		now := snapshot(dir)
		if maps.Equal(now, seen) {
			continue
		}
		for { // debounce: wait until a save is finished
			select {
			case <-ctx.Done():
				return now, false
			case <-time.After(settle):
			}
			again := snapshot(dir)
			if maps.Equal(again, now) {
				return again, true
			}
			now = again
		}
	}
}

// snapshot is the size and modification time of every Go file and the
// hints of a step directory (testdata included), by path.
func snapshot(dir string) map[string]string {
	out := map[string]string{}
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".txt")) {
			return nil
		}
		if info, err := d.Info(); err == nil {
			out[path] = fmt.Sprint(info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	return out
}
