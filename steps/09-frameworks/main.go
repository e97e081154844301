// Step 9 — frameworks. Article D moved a Node + Express API to Bun + Elysia
// on a 1-vCPU VPS: 14,200 → 81,500 req/s, "nearly 6 times" (×5.7 is our
// arithmetic). Its endpoint is unspecified, and the framework is only part
// of what changed (the runtime, kernel settings and pools did too). Here
// the same three endpoints (internal/given/endpoints) are served by echo,
// net/http and fasthttp, each in its own process on one pinned CPU, so the
// bench shows what a framework costs — on an empty response, on strict
// JSON validation, and on a read that waits for PostgreSQL. Your part: a
// fourth framework of your choice (exercise.go).
//
//	make step-9 run FRAMEWORK=fasthttp PG_POOL=10
package main

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/given/serverenv"
)

// A Framework serves app's endpoints on ln until ctx is done, then shuts
// down gracefully (in-flight requests finish) and returns nil. Every
// framework answers the same routes, bodies, statuses and JSON errors
// (check_test.go holds them to it):
//
//	GET  /empty        the ceiling        GET /healthz  for the bench
//	POST /validate     strict JSON        GET /metrics  Prometheus, for the bench
//	GET  /items/:id    one DB query
type Framework func(ctx context.Context, ln net.Listener, app *endpoints.App) error

// frameworks by the name FRAMEWORK= takes (serverenv.Frameworks lists
// them, so that a bad name is said before anything starts).
var frameworks = map[string]Framework{
	"echo":     serveEcho,
	"nethttp":  serveNetHTTP,
	"fasthttp": serveFastHTTP,
	"yours":    serveYours, // exercise.go
}

// debugHandler serves /debug/pprof/ for make step-9 profile (each framework
// mounts it; it is not part of the contract the check holds yours to).
var debugHandler = func() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}()

func main() {
	cfg := serverenv.Must()                                 // FRAMEWORK (echo unless set), PG_POOL, PEAKLOAD_ADDR…
	server.ProfileContention(cfg.MutexProfile)              // make step-9 profile: off otherwise, it costs on every lock
	pool := cmp.Or(cfg.Pool, params.Load().Frameworks.Pool) // sized to the database's CPU; the bench's pool rows vary it
	if err := run(cfg, frameworks[cfg.Framework], pool); err != nil {
		log.Fatal(err)
	}
}

func run(cfg serverenv.Config, serve Framework, pool int) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, err := catalog.OpenPool(ctx, cfg.DB.PostgresURL, pool)
	if err != nil {
		return err
	}
	defer store.Close()
	ln, err := net.Listen("tcp", cfg.Addr) // 127.0.0.1 unless PEAKLOAD_ADDR says otherwise
	if err != nil {
		return fmt.Errorf("listen %s: %w", cfg.Addr, err)
	}
	name := cfg.Framework
	log.Printf("step 9 — %s listening on http://%s (PostgreSQL pool %d, GOMAXPROCS=%d)", name, ln.Addr(), pool, runtime.GOMAXPROCS(0))
	if err := serve(ctx, ln, &endpoints.App{Store: store, Name: name}); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	log.Printf("step 9 — %s stopped cleanly", name)
	return nil
}
