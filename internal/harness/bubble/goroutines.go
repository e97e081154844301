package bubble

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
)

// A watchdog that ends a check must say why, in the learner's terms: not
// "it took too long" but what each goroutine of their code was doing —
// waiting on a lock, a channel, the network, or running without ever
// waiting. testing/synctest moves its fake clock only when every goroutine
// of the bubble waits durably (a channel, a timer, a WaitGroup); a
// goroutine on a mutex or spinning keeps it still, and the bubble never
// ends.

// goroutine is one goroutine of a stack dump: its state as the runtime
// prints it ("sync.Mutex.Lock", "chan receive", "running") and its frames
// in the learner's code, innermost first.
type goroutine struct {
	state  string
	frames []string // "exercise.go:27 (*Batcher).run"
}

// Goroutines says what each goroutine with a frame in the step's code
// (the test's directory: exercise.go and the step's files; the reference
// under solutions/ with SOLUTION=1) was doing, with its stack trimmed to
// those frames: the lines a watchdog prints before it ends the test binary.
func Goroutines() []string {
	dirs := ownDirs()
	var said []string
	var counts []int
	seen := map[string]int{} // a hundred callers on one lock are one line, ×100
	for _, g := range inBubble(parseStacks(allStacks(), dirs)) {
		line := messages.T("bubble.goroutine", waitingOn(g.state), g.state) + "\n      " + strings.Join(g.frames, "\n      ")
		if i, ok := seen[line]; ok {
			counts[i]++
			continue
		}
		seen[line] = len(said)
		said = append(said, line)
		counts = append(counts, 1)
	}
	for i, n := range counts {
		if n > 1 {
			head, rest, _ := strings.Cut(said[i], "\n")
			said[i] = fmt.Sprintf("%s ×%d\n%s", head, n, rest)
		}
	}
	if len(said) == 0 {
		return []string{messages.T("bubble.no_goroutine")}
	}
	var names []string
	for _, d := range dirs {
		names = append(names, filepath.Join(filepath.Base(filepath.Dir(d)), filepath.Base(d)))
	}
	return append([]string{messages.T("bubble.goroutines_head", strings.Join(names, ", "))}, said...)
}

// inBubble keeps, when some goroutines are in a synctest bubble, only
// those, without the bubble's root (synctest.Run, waiting for the rest),
// and drops the bubble from their states: the rest is the test binary's.
func inBubble(gs []goroutine) []goroutine {
	var in []goroutine
	for _, g := range gs {
		if state, _, ok := strings.Cut(g.state, ", synctest bubble"); ok && !strings.HasPrefix(state, "synctest.Run") {
			g.state = state
			in = append(in, g)
		}
	}
	if len(in) == 0 && !strings.Contains(fmt.Sprint(gs), "synctest bubble") {
		return gs
	}
	return in
}

// waitingOn names, in the learner's words, what a goroutine in state
// waits for.
func waitingOn(state string) string {
	if onLock(state) {
		return messages.T("bubble.on_mutex")
	}
	switch stateKind(state) {
	case "chan receive", "chan send", "select", "select (no cases)":
		return messages.T("bubble.on_channel")
	case "IO wait", "syscall":
		return messages.T("bubble.on_io")
	case "running", "runnable", "preempted":
		return messages.T("bubble.running")
	case "sleep":
		return messages.T("bubble.sleeping")
	case "sync.WaitGroup.Wait":
		return messages.T("bubble.on_waitgroup")
	}
	return messages.T("bubble.on_other")
}

// onLock says whether a goroutine in state waits for a lock, which
// synctest does not count as durably blocked.
func onLock(state string) bool {
	return stateIs(state, "sync.Mutex.Lock", "sync.RWMutex.Lock", "sync.RWMutex.RLock", "sync.Cond.Wait")
}

// stateIs says whether a goroutine's state is one of kinds: the one
// reading of a state that onLock, active and waitingOn share.
func stateIs(state string, kinds ...string) bool {
	return slices.Contains(kinds, stateKind(state))
}

// stateKind is what a goroutine in state does or waits for, without what
// a stack dump prints around it: the "]" and after, how long it has waited
// (", 2 minutes"), a qualifier (" (durable)", " (scan)").
func stateKind(state string) string {
	kind, _, _ := strings.Cut(state, "]")
	kind, _, _ = strings.Cut(kind, ",")
	kind, _, _ = strings.Cut(kind, " (")
	return kind
}

// ownDirs are the directories whose files are the step's code: the test's
// own (go test runs it in the package's directory) and, for a step, its
// reference's.
func ownDirs() []string {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	dirs := []string{wd}
	if filepath.Base(filepath.Dir(wd)) == "steps" {
		dirs = append(dirs, filepath.Join(filepath.Dir(filepath.Dir(wd)), "solutions", filepath.Base(wd)))
	}
	return dirs
}

// allStacks is every goroutine's stack, as a panic prints them.
func allStacks() string {
	dump.Lock()
	defer dump.Unlock()
	return string(dumpStacks())
}

// parseStacks reads a runtime.Stack dump and keeps each goroutine but the
// first (the one that took the dump) with a frame in one of dirs, trimmed
// to those frames.
func parseStacks(dump string, dirs []string) []goroutine {
	var gs []goroutine
	for _, block := range strings.Split(dump, "\n\n")[1:] { // [0] is the caller's: the watchdog's
		lines := strings.Split(strings.TrimSpace(block), "\n")
		head, ok := strings.CutPrefix(lines[0], "goroutine ")
		if !ok {
			continue
		}
		_, state, _ := strings.Cut(head, "[")
		state, _, _ = strings.Cut(state, "]")
		g := goroutine{state: state}
		for i := 1; i+1 < len(lines); i += 2 { // a function, then its file:line
			fn := strings.TrimSpace(lines[i])
			if strings.HasPrefix(fn, "created by ") {
				break
			}
			file, _, _ := strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
			for _, d := range dirs {
				if strings.HasPrefix(file, d+string(filepath.Separator)) {
					g.frames = append(g.frames, fmt.Sprintf("%s %s", filepath.Base(file), shortFunc(fn)))
				}
			}
		}
		if len(g.frames) > 0 {
			gs = append(gs, g)
		}
	}
	return gs
}

// shortFunc is a frame's function without its package path and arguments:
// "main.(*Batcher).run(0xc000…)" → "(*Batcher).run".
func shortFunc(fn string) string {
	if i := strings.LastIndex(fn, "("); i > 0 && strings.HasSuffix(fn, ")") {
		fn = fn[:i]
	}
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	_, fn, _ = strings.Cut(fn, ".")
	return fn
}
