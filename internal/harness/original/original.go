// Package original finds and describes the sources' own stacks: the
// servers in originals/ at the repository's root, written afresh from the
// articles' text (A on Fastify, B on Express and Koa, C on Node's crypto,
// D on Express and on Elysia with Bun). `make step-N bench ORIGINAL=1`
// measures them beside the Go rows, pinned to the same CPU, against the
// same databases, with the same driver: the articles' claims are then
// judged on their own runtime, on the learner's machine, too.
package original

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
)

// Dir is the originals' directory, relative to the repository's root.
const Dir = "originals"

// Runtimes.
const (
	Node = "node"
	Bun  = "bun"
)

// MinNode is the oldest Node.js major the originals run on (Debian 12 ships 18).
const MinNode = 18

// Program is one original server or script: its runtime, its file under
// originals/ ("b-express/server.js") and the environment it adds to the
// databases' addresses (UV_THREADPOOL_SIZE=4, MODE=bulk…).
type Program struct {
	Runtime string
	Script  string
	Env     []string
}

// String names the program as a table note does: "node b-express/server.js MODE=bulk".
func (p Program) String() string {
	return strings.Join(append([]string{p.Runtime, p.Script}, p.Env...), " ")
}

// ErrMissing says an original cannot run here: Node.js is not installed,
// or its packages are not (make prefetch). Its text says how to get them.
var ErrMissing = errors.New("the sources' own stacks are not installed")

// Command returns the binary and arguments that run p from the repository
// at root, or an error wrapping ErrMissing that says what to install.
func (p Program) Command(root string) (bin string, args []string, err error) {
	dir := filepath.Join(root, Dir)
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		return "", nil, fmt.Errorf("%w: %s has no node_modules; run `make prefetch-originals` (npm ci, the versions originals/package-lock.json pins)", ErrMissing, dir)
	}
	script := filepath.Join(dir, p.Script)
	switch p.Runtime {
	case Node:
		node, err := NodeBinary()
		if err != nil {
			return "", nil, err
		}
		return node, []string{script}, nil
	case Bun:
		bun, err := BunBinary(root)
		if err != nil {
			return "", nil, err
		}
		return bun, []string{"run", script}, nil
	}
	return "", nil, errors.New(messages.T("original.unknown_runtime", p.Script, p.Runtime))
}

// NodeBinary is node on PATH, at least MinNode.
func NodeBinary() (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", fmt.Errorf("%w: no node on PATH; `make deps` installs Debian's nodejs (or use any Node.js ≥ %d)", ErrMissing, MinNode)
	}
	v, err := NodeVersion(node)
	if err != nil {
		return "", err
	}
	if major(v) < MinNode {
		return "", fmt.Errorf("%w: %s is Node.js %s; the originals need %d or newer", ErrMissing, node, v, MinNode)
	}
	return node, nil
}

// NodeVersion is `node --version` without its "v": "20.20.2".
func NodeVersion(node string) (string, error) {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", node, err)
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), nil
}

// BunBinary is the Bun the npm package "bun" installed under originals/
// (its platform binary, @oven/bun-linux-x64 here).
func BunBinary(root string) (string, error) {
	bun := filepath.Join(root, Dir, "node_modules", "bun", "bin", "bun.exe")
	if _, err := os.Stat(bun); err != nil {
		return "", fmt.Errorf("%w: no Bun at %s; run `make prefetch-originals`", ErrMissing, bun)
	}
	return bun, nil
}

// Versions says which runtimes are here, for the results file and doctor:
// {"node": "20.20.2", "bun": "1.4.5"}; a runtime missing is absent.
func Versions(root string) map[string]string {
	out := map[string]string{}
	if node, err := NodeBinary(); err == nil {
		if v, err := NodeVersion(node); err == nil {
			out[Node] = v
		}
	}
	if bun, err := BunBinary(root); err == nil {
		if b, err := exec.Command(bun, "--version").Output(); err == nil {
			out[Bun] = strings.TrimSpace(string(b))
		}
	}
	return out
}

func major(v string) int {
	n, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	return n
}

// Root is the repository's root: the nearest directory, from the working
// directory up, that holds originals/package.json (make runs at the root).
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, Dir, "package.json")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("%w: no %s/package.json above the working directory", ErrMissing, Dir)
		}
		dir = up
	}
}
