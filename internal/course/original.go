package course

import "strings"

// The sources' own stacks (ORIGINAL=1), as their rows name them.
const (
	Fastify = "fastify" // article A
	Express = "express" // articles B and D
	Koa     = "koa"     // the author's repository's second table (article B)
	NodeJS  = "node"    // Node.js with no framework: the guide article C summarises (its crypto), article B's raw inserts
	Elysia  = "elysia"  // article D, on Bun
)

// On is variant v measured on a source's own stack: On(Express, EmptyGet)
// is "express-empty-get", beside the Go row "empty-get".
func On(stack string, v Variant) Variant { return Variant(stack + "-" + string(v)) }

// Off is On's inverse: Off(Express, "express-sync") is "sync", true; a row
// of another stack (or a Go row) is "", false.
func Off(stack string, v Variant) (Variant, bool) {
	base, ok := strings.CutPrefix(string(v), stack+"-")
	return Variant(base), ok
}
