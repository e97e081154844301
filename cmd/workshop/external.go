package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/scenario"
)

// The Compose bench profile (compose/compose.yaml) runs `workshop bench`
// in a container of its own, for a learner with Docker and nothing else:
// the step server is the app container (built from compose/Dockerfile,
// held to one CPU by Docker's quota), the databases are the stack's
// containers (STACK=given), and the live-stats worker is the worker
// container. The driver, the scenario, the claims and the results file are
// the native bench's own.

// externalServer is PEAKLOAD_SERVER_URL, the address of a step server
// someone else runs, or "" when the bench builds and starts its own.
func externalServer(step scenario.Step) (string, error) {
	url := strings.TrimRight(os.Getenv("PEAKLOAD_SERVER_URL"), "/")
	if url == "" {
		return "", nil
	}
	if !strings.HasPrefix(url, "http://") {
		return "", fmt.Errorf("PEAKLOAD_SERVER_URL=%q: want http://host:port", url)
	}
	if os.Getenv("LATENCY") != "" {
		return "", fmt.Errorf("LATENCY with PEAKLOAD_SERVER_URL: the delay sits between a server the bench starts and its databases; bench step %d natively for it", step.N)
	}
	return url, nil
}

// workerElsewhere is PEAKLOAD_WORKER=external: a worker container changes
// the live stats already, and a second one would double their rate.
func workerElsewhere() bool { return os.Getenv("PEAKLOAD_WORKER") == "external" }

// noteExternal records, in the results file and under the table, that the
// server was not this bench's own process.
func noteExternal(res *bench.Result, url string) {
	if url == "" {
		return
	}
	res.Machine.Stack = "compose-bench"
	res.Params["server_url"] = url
	res.Notes = append(res.Notes, fmt.Sprintf("server: %s, a container of its own (one CPU by Docker's quota, GOMAXPROCS=1; not pinned to a core); its memory is not read from here", url))
}
