package stack

import "github.com/peakload/workshop/internal/given/messages"

// STACK=auto. The same step measured natively and under Compose does not
// give the same round trips: Docker's port proxy (and, on Docker Desktop,
// its VM) makes every PostgreSQL and Redis round trip slower. The
// workshop's verdicts are built to survive that (make test-latency), but
// absolute figures differ, so auto prefers the native stack whenever its
// binaries are here, and says which one it chose, and why, before a bench.

// NativeReady reports whether the native stack's binaries are installed:
// PostgreSQL's initdb and pg_ctl and redis-server (MongoDB always has the
// embedded FerretDB).
func NativeReady() bool {
	for _, name := range []string{"initdb", "pg_ctl", "redis-server"} {
		if _, err := LookPath(name); err != nil {
			return false
		}
	}
	return true
}

// Choice is the stack a command will use and why, for the learner.
func (c Config) Choice() (kind, why string) {
	if c.Kind == Given {
		return Given, messages.T("stack.why_given")
	}
	if c.Kind != "auto" && c.Kind != "" {
		return c.Kind, "STACK=" + c.Kind
	}
	if s := c.loadState(); s.Kind != "" {
		return s.Kind, messages.T("stack.why_up", s.Kind)
	}
	if NativeReady() {
		return "native", messages.T("stack.why_native")
	}
	if DockerEngine() {
		return "compose", messages.T("stack.why_compose")
	}
	return "native", messages.T("stack.why_no_docker")
}
