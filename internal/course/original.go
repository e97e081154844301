package course

// The sources' own stacks (ORIGINAL=1), as their rows name them.
const (
	Fastify = "fastify" // article A
	Express = "express" // articles B and D
	Koa     = "koa"     // the author's repository's second table (article B)
	NodeJS  = "node"    // the guide article C summarises: Node's crypto
	Elysia  = "elysia"  // article D, on Bun
)

// On is variant v measured on a source's own stack: On(Express, EmptyGet)
// is "express-empty-get", beside the Go row "empty-get".
func On(stack string, v Variant) Variant { return Variant(stack + "-" + string(v)) }
