package stack

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
)

// Tool is a program the workshop uses, with how to get it on each platform.
type Tool struct {
	Name     string // binary looked up on PATH
	Apt      string // Debian/Ubuntu (and WSL) package
	Brew     string // macOS Homebrew formula
	Optional bool
}

// Why says what the workshop needs the tool for, in the run's language
// (internal/given/messages: "tool.<name>").
func (t Tool) Why() string { return messages.T("tool." + t.Name) }

// Tools lists every external program, in the order `workshop doctor` shows them.
var Tools = []Tool{
	{Name: "initdb", Apt: "postgresql", Brew: "postgresql@15"},
	{Name: "pg_ctl", Apt: "postgresql", Brew: "postgresql@15"},
	{Name: "redis-server", Apt: "redis-server", Brew: "redis"},
	{Name: "haproxy", Apt: "haproxy", Brew: "haproxy"},
	{Name: "wrk", Apt: "wrk", Brew: "wrk", Optional: true},
	{Name: "mongod", Apt: "", Brew: "mongodb/brew/mongodb-community", Optional: true},
	{Name: "dot", Apt: "graphviz", Brew: "graphviz", Optional: true},
	{Name: "k6", Brew: "k6", Optional: true},
	// ORIGINAL=1: the sources' own stacks run on Node.js (Debian 12 ships
	// 18, the oldest they need) and their packages come from npm.
	{Name: "node", Apt: "nodejs", Brew: "node", Optional: true},
	{Name: "npm", Apt: "npm", Brew: "node", Optional: true},
	{Name: "docker", Apt: "docker.io", Brew: "--cask docker", Optional: true},
}

// Hint says how to install the tool on this machine's platform.
func (t Tool) Hint() string {
	var parts []string
	if t.Apt != "" {
		parts = append(parts, "Debian/Ubuntu/WSL: sudo apt-get install -y "+t.Apt)
	}
	if t.Brew != "" {
		parts = append(parts, "macOS: brew install "+t.Brew)
	}
	if len(parts) == 0 {
		return messages.T("tool.not_packaged")
	}
	return strings.Join(parts, "   |   ")
}

// LookPath finds a tool on PATH and, for PostgreSQL, also in Debian's
// versioned directory (/usr/lib/postgresql/NN/bin), which is not on PATH;
// then in /usr/sbin (haproxy).
func LookPath(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	dirs = append(dirs, "/opt/homebrew/opt/postgresql@15/bin", "/usr/local/opt/postgresql@15/bin")
	slices.Reverse(dirs[:len(dirs)-2]) // newest Debian version first
	// Debian installs daemons (haproxy) in /usr/sbin, not on a user's PATH.
	for _, d := range append(dirs, "/usr/sbin", "/usr/local/sbin") {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", errors.New(messages.T("tool.not_found", name))
}

func toolByName(name string) Tool {
	for _, t := range Tools {
		if t.Name == name {
			return t
		}
	}
	return Tool{Name: name}
}

// Require finds a tool or explains how to install it. As root on a
// Debian-like system it installs the missing apt package itself, saying so.
func Require(name string, log func(string, ...any)) (string, error) {
	if p, err := LookPath(name); err == nil {
		return p, nil
	}
	t := toolByName(name)
	if t.Apt != "" && canApt() {
		log("%s", messages.T("stack.installing", name, t.Apt))
		if err := AptInstall(t.Apt); err == nil {
			if p, err := LookPath(name); err == nil {
				return p, nil
			}
		}
	}
	return "", errors.New(messages.T("stack.not_installed", name, t.Why(), t.Hint()))
}

func canApt() bool {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		return false
	}
	_, err := exec.LookPath("apt-get")
	return err == nil
}

// AptInstall runs apt-get update and install for the given packages. Its
// output (dpkg's dozens of lines) is kept and shown only when it fails: a
// bench that installs HAProxy on the way says so in one line, not thirty.
func AptInstall(pkgs ...string) error {
	var out bytes.Buffer
	update := exec.Command("apt-get", "update", "-qq")
	update.Stdout, update.Stderr = &out, &out
	if err := update.Run(); err != nil {
		return fmt.Errorf("apt-get update: %w\n%s", err, out.String())
	}
	install := exec.Command("apt-get", append([]string{"install", "-y", "-qq", "--no-install-recommends"}, pkgs...)...)
	install.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	install.Stdout, install.Stderr = &out, &out
	if err := install.Run(); err != nil {
		return fmt.Errorf("apt-get install %s: %w\n%s", strings.Join(pkgs, " "), err, out.String())
	}
	return nil
}
