// Package k6 holds the k6 scripts of every step and the parameters they
// share with the Go driver, lib/params.json: the k6 scripts open it, and Go
// embeds it here for internal/given/params, which parses it.
package k6

import _ "embed"

// ParamsJSON is lib/params.json as built in (internal/given/params.Load parses it).
//
//go:embed lib/params.json
var ParamsJSON []byte
