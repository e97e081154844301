// Step 0 — ceilings. Before optimising anything, measure what the server can
// do when it does nothing: GET /empty returns a body as big as an item, POST
// /empty parses the real event payload and discards it. Every later number
// is read against these two (claims A0, ours, and B1, B2, article B's). Both routes live in
// internal/given/server, so every step serves them too.
//
// PEAKLOAD_SHELL=bare|timeouts|guards serves them with only part of the
// shared shell: the bench's layer rows, which show what each layer costs.
package main

import (
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/given/serverenv"
)

func main() {
	layer := serverenv.Must().Shell // PEAKLOAD_SHELL, the full shell unless set
	server.NewLayered("step 0 — ceilings (shell: "+layer.String()+")", layer).Main()
}
