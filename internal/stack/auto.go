package stack

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
		return Given, "STACK=given: the databases were started by someone else (the Compose bench profile's containers); waited for, never started or stopped"
	}
	if c.Kind != "auto" && c.Kind != "" {
		return c.Kind, "STACK=" + c.Kind
	}
	if s := c.loadState(); s.Kind != "" {
		return s.Kind, "STACK=auto, and the " + s.Kind + " stack is already up (make down to change)"
	}
	if NativeReady() {
		return "native", "STACK=auto: PostgreSQL and Redis are installed here, so they run natively (STACK=compose for containers)"
	}
	if DockerEngine() {
		return "compose", "STACK=auto: no native PostgreSQL/Redis here and a Docker engine answers, so the databases run in containers; " +
			"their round trips cross Docker's proxy (and Docker Desktop's VM): absolute figures differ from a native run, " +
			"ratios and verdicts should not (STACK=native after `make deps` to compare)"
	}
	return "native", "STACK=auto: no Docker engine answers, so the native stack is used (missing binaries are installed or named)"
}
