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
)

// runMongo serves the MongoDB wire protocol with FerretDB v1 on SQLite, for
// machines without mongod (Debian ships none). The stack starts it as its own
// process, like a real mongod.
func runMongo(args []string) error {
	fs := flag.NewFlagSet("mongo", flag.ExitOnError)
	listen := fs.String("listen", "127.0.0.1:57017", "TCP address to serve on")
	dir := fs.String("dir", ".workshop/mongo", "SQLite data directory")
	_ = fs.Parse(args)

	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", abs, err)
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/", // FerretDB wants a directory URL ending in /
		Logger:    slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return fmt.Errorf("ferretdb: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(os.Stderr, "FerretDB (MongoDB wire protocol, SQLite in %s) on %s\n", abs, *listen)
	f.Run(ctx)
	return nil
}
