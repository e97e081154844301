// Step 0 — ceilings. Before optimising anything, measure what the server can
// do when it does nothing: GET /empty returns a body as big as an item, POST
// /empty parses the real event payload and discards it. Every later number
// is read against these two (articles A0, B1, B2). Both routes live in
// internal/server, so every step serves them too.
package main

import "github.com/peakload/workshop/internal/server"

func main() {
	server.New("step 0 — ceilings").Main()
}
