// Package drill holds the failure drills of the write and read paths — a
// step server under load while its database is killed and restarted, then
// the server itself is sent SIGTERM — and what they share with the checks
// that run a step as a process: a private database that may be killed, a
// load that counts what the server acknowledged, and the verdict
// "persisted == accepted". `make step-N drill` prints its report; the
// steps' process tests assert it.
package drill

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/stack"
)

// Mongo is a private MongoDB wire server (FerretDB, or mongod where
// installed) on a free port, with storage of its own: a PostgreSQL database
// named for the drill, dropped first, or a directory. A drill kills and
// restarts it without touching the stack's own.
type Mongo struct {
	URL  string
	c    stack.Config
	addr string
	dir  string
	db   string
	cmd  *exec.Cmd
	done chan struct{}
}

// StartMongo starts a fresh private server; name names its PostgreSQL
// database (FerretDB's postgresql backend), dir its files otherwise.
func StartMongo(ctx context.Context, c stack.Config, name, dir string) (*Mongo, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	m := &Mongo{URL: "mongodb://" + addr + "/", c: c, addr: addr, dir: dir, db: name}
	if c.FerretOnPostgres() {
		if err := stack.DropDatabase(ctx, c, name); err != nil {
			return nil, fmt.Errorf("drop %s (is the stack's PostgreSQL up?): %w", name, err)
		}
	}
	return m, m.Start(ctx)
}

// Start (re)starts the server on its address and storage and waits until
// it answers.
func (m *Mongo) Start(ctx context.Context) error {
	if err := os.MkdirAll(m.dir, 0o755); err != nil {
		return err
	}
	cmd, err := m.c.MongoCommand(ctx, m.addr, m.dir, m.db)
	if err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(m.dir, "mongo.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start private MongoDB: %w", err)
	}
	m.cmd, m.done = cmd, make(chan struct{})
	go func(done chan struct{}) { _ = cmd.Wait(); close(done) }(m.done)
	switch awaitAnswer(ctx, m.done, 30*time.Second, 50*time.Millisecond, func() error { return stack.PingMongo(ctx, m.URL) }) {
	case errExited:
		return errors.New(messages.T("drill.mongo_exited", filepath.Join(m.dir, "mongo.log")))
	case errSilent:
		m.Kill()
		return errors.New(messages.T("drill.mongo_silent", m.addr))
	}
	return nil
}

// Kill stops the server with SIGKILL, as a crash would: no goodbye to the
// clients, whatever was in flight is cut.
func (m *Mongo) Kill() {
	if m.cmd == nil {
		return
	}
	_ = m.cmd.Process.Kill()
	<-m.done
}

// Close kills the server and drops its PostgreSQL database.
func (m *Mongo) Close() {
	m.Kill()
	if m.c.FerretOnPostgres() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = stack.DropDatabase(ctx, m.c, m.db)
	}
}

// FreeAddr returns a free loopback address.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
