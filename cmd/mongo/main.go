// Command mongo serves the MongoDB wire protocol with FerretDB v1, for
// machines without mongod (Debian ships none). It is its own binary, built
// only when a step needs MongoDB (.workshop/bin/mongo): FerretDB is most of
// what there is to compile, and the read-path steps never use it.
//
// Two backends, as FerretDB 1.x offers:
//
//	-backend postgresql  a database of its own on the workshop's PostgreSQL
//	                     (concurrent writers, like MongoDB: the default)
//	-backend sqlite      files in -dir (one writer at a time)
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"

	"github.com/peakload/workshop/internal/given/dbaddr"
)

func main() {
	listen := flag.String("listen", fmt.Sprintf("%s:%d", dbaddr.DefaultHost, dbaddr.DefaultMongoPort), "TCP address to serve on")
	backend := flag.String("backend", "postgresql", "where FerretDB stores documents: postgresql or sqlite")
	pgURL := flag.String("postgresql-url", fmt.Sprintf("postgres://postgres@%s:%d/ferretdb?sslmode=disable", dbaddr.DefaultHost, dbaddr.DefaultPGPort), "PostgreSQL database (backend postgresql)")
	dir := flag.String("dir", ".workshop/mongo", "SQLite data directory (backend sqlite)")
	flag.Parse()
	if err := run(*listen, *backend, *pgURL, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "mongo:", err)
		os.Exit(1)
	}
}

func run(listen, backend, pgURL, dir string) error {
	c := ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: listen},
		Handler:  backend,
		Logger:   slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	where := ""
	switch backend {
	case "postgresql":
		c.PostgreSQLURL, where = pgURL, pgURL
	case "sqlite":
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", abs, err)
		}
		c.SQLiteURL, where = "file:"+abs+"/", abs // FerretDB wants a directory URL ending in /
	default:
		return fmt.Errorf("unknown backend %q (want postgresql or sqlite)", backend)
	}
	f, err := ferretdb.New(&c)
	if err != nil {
		return fmt.Errorf("ferretdb: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(os.Stderr, "FerretDB (MongoDB wire protocol, %s backend: %s) on %s\n", backend, where, listen)
	f.Run(ctx)
	return nil
}
