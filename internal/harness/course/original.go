package course

import (
	"slices"
	"strings"
)

// The sources' own stacks (ORIGINAL=1), as their rows name them.
const (
	Fastify = "fastify" // article A
	Express = "express" // articles B and D
	Koa     = "koa"     // rows 10–15 of the author's README table (article B)
	NodeJS  = "node"    // Node.js with no framework: the guide article C summarises (its crypto), article B's raw inserts
	Elysia  = "elysia"  // article D, on Bun
)

// On is variant v measured on a source's own stack: On(Express, EmptyGet)
// is "express-empty-get", beside the Go row "empty-get".
func On(stack string, v Variant) Variant { return Variant(stack + "-" + string(v)) }

// originals lists, step by step, the sources' stacks whose rows ORIGINAL=1
// adds to the step's bench (issue 37): which article runs on what. The rows
// themselves are the scenarios' (internal/harness/scenario), named On(stack, v) or,
// step 9, FrameworkRow(stack, ep); TestRowsOnTheSourcesStacksAreDeclared holds the two
// together, and `make test-originals` fails a stack declared here whose rows
// the bench does not measure.
var originals = map[int][]string{
	0: {Express, Koa},    // article B's empty GET / POST, and the repository's Koa rows
	1: {Fastify},         // article A, on Fastify with node-postgres
	2: {Fastify},         // … cache-aside on ioredis
	3: {Fastify},         // … weak ETags (@fastify/etag)
	4: {Fastify},         // … the in-flight promise map
	5: {Fastify},         // … node-cache in front of Redis
	6: {Express, NodeJS}, // article B's inserts: sync, async, group, bulk; raw-insert.js on Node (Koa's: original_b.go says why not)
	7: {Express},         // article B's counters
	8: {NodeJS},          // the guide's login: pbkdf2Sync, then pbkdf2
	9: {Express, Elysia}, // article D: Express on Node, Elysia on Bun
}

// Originals are the sources' stacks the step's bench measures with
// ORIGINAL=1 (nil: the step has no original, as step 10).
func (s Step) Originals() []string { return originals[s.N] }

// IsOriginalRow says whether row v of the step runs on one of its
// originals' stacks: its name is the stack's, a dash, then the row's.
func (s Step) IsOriginalRow(v Variant) bool {
	for _, stack := range s.Originals() {
		if strings.HasPrefix(string(v), stack+"-") {
			return true
		}
	}
	return false
}

// Off is On's inverse: Off(Express, "express-sync") is "sync", true; a row
// of another stack (or a Go row) is "", false.
func Off(stack string, v Variant) (Variant, bool) {
	base, ok := strings.CutPrefix(string(v), stack+"-")
	return Variant(base), ok
}

// originalServices are the databases a step's originals need beyond its Go
// server's: article B's servers connect to MongoDB before they listen, as
// the article's code does, even to serve step 0's empty routes.
var originalServices = map[int][]string{0: {Mongo}}

// ServicesWithOriginals is the step's services, and with ORIGINAL=1 those
// its originals need too.
func (s Step) ServicesWithOriginals(original bool) []string {
	if !original {
		return s.Services
	}
	out := slices.Clone(s.Services)
	for _, svc := range originalServices[s.N] {
		if !slices.Contains(out, svc) {
			out = append(out, svc)
		}
	}
	return out
}
