package main

import (
	"errors"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
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
func externalServer(cfg config.Config, step scenario.Step) (string, error) {
	url := cfg.ServerURL // config.Config checked it is http://
	if url == "" {
		return "", nil
	}
	if cfg.Latency != "" {
		return "", errors.New(messages.T("external.latency", step.N))
	}
	return url, nil
}

// noteExternal records, in the results file and under the table, that the
// server was not this bench's own process.
func noteExternal(res *result.Result, url string) {
	if url == "" {
		return
	}
	res.Machine.Stack = "compose-bench"
	res.Params["server_url"] = url
	res.Notes = append(res.Notes, messages.English.T("note.external", url))
}
