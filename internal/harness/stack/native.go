package stack

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/peakload/workshop/internal/given/messages"
)

// upNative starts one private server unless the workshop's own is already
// running. It reports whether it started it.
func upNative(ctx context.Context, c Config, name string) (bool, error) {
	if pid := c.nativePID(name); pid > 0 {
		return false, c.ready(ctx, name, 30*time.Second)
	}
	if port := c.port(name); listening(c.Host, port) {
		return false, errors.New(messages.T("stack.port_taken", port, c.Host, name, envName(name)))
	}
	var err error
	switch name {
	case Postgres:
		err = startPostgres(ctx, c)
	case Redis:
		err = startRedis(ctx, c)
	case Mongo:
		err = startMongo(ctx, c)
	}
	if err != nil {
		return false, err
	}
	c.Log("%s", messages.T("stack.started", name, c.Host, c.port(name), "native"))
	return true, c.ready(ctx, name, 60*time.Second)
}

func envName(service string) string {
	if service == Postgres {
		return "PG"
	}
	return strings.ToUpper(service)
}

func downNative(c Config, name string) error {
	pid := c.nativePID(name)
	if pid == 0 {
		return nil
	}
	if name == Postgres {
		pgCtl, err := LookPath("pg_ctl")
		if err != nil {
			return err
		}
		if err := c.runAsPostgres(pgCtl, "-D", c.pgDataDir(), "-m", "fast", "-w", "-t", "60", "stop"); err != nil {
			return err
		}
	} else if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	// pg_ctl returns when the PID file is gone, a moment before the process
	// is: wait for the process itself, so "down" means nothing is left.
	deadline := time.Now().Add(20 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if name != Postgres {
		_ = os.Remove(c.pidFile(name))
	}
	return nil
}

// nativePID returns the PID of the workshop's own server, or 0.
func (c Config) nativePID(name string) int {
	path := c.pidFile(name)
	if name == Postgres {
		path = filepath.Join(c.pgDataDir(), "postmaster.pid")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || !alive(pid) {
		return 0
	}
	return pid
}

func (c Config) pidFile(name string) string { return filepath.Join(c.Dir, name+".pid") }

func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	// A zombie (exited, not yet reaped by its parent) is not alive.
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if _, rest, ok := strings.Cut(string(b), ") "); ok && strings.HasPrefix(rest, "Z") {
			return false
		}
	}
	return true
}

// ready checks that a service answers a real command, not just a TCP accept.
func (c Config) ready(ctx context.Context, name string, timeout time.Duration) error {
	e := c.Endpoints()
	switch name {
	case Postgres:
		return waitFor(ctx, "PostgreSQL", timeout, func(ctx context.Context) error { return ensureDatabase(ctx, c) })
	case Redis:
		rdb := redis.NewClient(&redis.Options{Addr: e.RedisAddr, MaxRetries: -1})
		defer rdb.Close()
		return waitFor(ctx, "Redis", timeout, func(ctx context.Context) error { return rdb.Ping(ctx).Err() })
	default:
		return waitFor(ctx, "MongoDB", timeout, func(ctx context.Context) error { return PingMongo(ctx, e.MongoURL) })
	}
}

// PingMongo connects to a MongoDB wire server and runs ping.
func PingMongo(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	client, err := mongo.Connect(options.Client().ApplyURI(url).SetServerSelectionTimeout(time.Second))
	if err != nil {
		return err
	}
	defer client.Disconnect(context.Background())
	return client.Ping(ctx, nil)
}

// ensureDatabase creates the "workshop" database on first start.
func ensureDatabase(ctx context.Context, c Config) error { return createDatabase(ctx, c, "workshop") }

// createDatabase creates a database on the stack's PostgreSQL unless it exists.
func createDatabase(ctx context.Context, c Config, name string) error {
	admin := strings.Replace(c.Endpoints().PostgresURL, "/workshop?", "/postgres?", 1)
	// A server that is down refuses at once; the bound is for one that
	// hangs. CREATE DATABASE copies template1, seconds on a loaded machine,
	// so it gets a bound of its own, far above that.
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(cctx, admin)
	if err != nil {
		return fmt.Errorf("%s: %w", messages.T("stack.ferret_database"), err)
	}
	defer conn.Close(context.Background())
	qctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var exists bool
	if err := conn.QueryRow(qctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return fmt.Errorf("look up database %s: %w", name, err)
	}
	if exists {
		return nil
	}
	if _, err = conn.Exec(qctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// pgDataDir is .workshop/pg, unless the server must run as the postgres user
// (we are root) and that user cannot traverse the way there, e.g. a checkout
// under /root. Then a private directory under the system temp dir is used.
func (c Config) pgDataDir() string {
	dir := filepath.Join(c.Dir, "pg")
	if os.Geteuid() != 0 {
		return dir
	}
	uid, gid, err := postgresUser()
	if err != nil || traversable(c.Dir, uid, gid) {
		return dir
	}
	sum := sha256.Sum256([]byte(c.Dir))
	return filepath.Join(os.TempDir(), "peakload-"+hex.EncodeToString(sum[:6]), "pg")
}

// traversable reports whether uid/gid may pass through dir and all its parents.
func traversable(dir string, uid, gid int) bool {
	for d := dir; ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil {
			return false
		}
		sys := st.Sys().(*syscall.Stat_t)
		mode := st.Mode().Perm()
		ok := mode&0o001 != 0 || (int(sys.Uid) == uid && mode&0o100 != 0) || (int(sys.Gid) == gid && mode&0o010 != 0)
		if !ok {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

func postgresUser() (uid, gid int, err error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", messages.T("stack.no_postgres_user"), err)
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid, nil
}

// runAsPostgres runs a PostgreSQL tool, as the postgres user when we are root
// (PostgreSQL refuses to run as root).
func (c Config) runAsPostgres(bin string, args ...string) error {
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Ctrl-C in the terminal must not reach the server
	if os.Geteuid() == 0 {
		uid, gid, err := postgresUser()
		if err != nil {
			return err
		}
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", filepath.Base(bin), strings.Join(args, " "), err, out)
	}
	return nil
}

// pgSettings tune the private cluster for a disposable benchmark database:
// no fsync (nothing here must survive a power cut), no JIT and no parallel
// workers (they add variance to a ~1 ms query), and connections for everyone
// at once: FerretDB's pool (250, below) beside step 9's largest pool (100)
// and the step servers' own (one make test runs them all on one server).
var pgSettings = []string{
	"fsync=off", "synchronous_commit=off", "full_page_writes=off", "jit=off",
	"max_parallel_workers_per_gather=0", "max_connections=500", "shared_buffers=1GB",
	"work_mem=16MB", "maintenance_work_mem=512MB", "max_wal_size=4GB", "wal_level=minimal", "max_wal_senders=0",
}

func startPostgres(ctx context.Context, c Config) error {
	initdb, err := Require("initdb", c.Log)
	if err != nil {
		return err
	}
	pgCtl, err := Require("pg_ctl", c.Log)
	if err != nil {
		return err
	}
	dir := c.pgDataDir()
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if os.Geteuid() == 0 {
		uid, gid, err := postgresUser()
		if err != nil {
			return err
		}
		if err := os.Chown(dir, uid, gid); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); err != nil {
		c.Log("initdb %s", dir)
		if err := c.runAsPostgres(initdb, "-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"); err != nil {
			return err
		}
	}
	opts := fmt.Sprintf("-p %d -c listen_addresses=%s -c unix_socket_directories=%s", c.PGPort, c.Host, dir)
	for _, s := range pgSettings {
		opts += " -c " + s
	}
	// pg_stat_statements counts an original's statements (ORIGINAL=1,
	// internal/harness/servicestats): Debian's PostgreSQL ships it beside pg_ctl.
	if bin, err := filepath.EvalSymlinks(pgCtl); err == nil {
		if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(bin)), "lib", "pg_stat_statements.so")); err == nil {
			opts += " -c shared_preload_libraries=pg_stat_statements"
		}
	}
	return c.runAsPostgres(pgCtl, "-D", dir, "-l", filepath.Join(dir, "server.log"), "-o", opts, "-w", "-t", "60", "start")
}

func startRedis(ctx context.Context, c Config) error {
	bin, err := Require("redis-server", c.Log)
	if err != nil {
		return err
	}
	// No persistence: the cache is disposable, and a fork to save would
	// disturb the measurement.
	cmd := exec.Command(bin, "--port", strconv.Itoa(c.RedisPort), "--bind", c.Host, "--save", "", "--appendonly", "no",
		"--daemonize", "yes", "--pidfile", c.pidFile(Redis), "--logfile", filepath.Join(c.Dir, "redis.log"),
		"--dir", c.Dir, "--maxmemory", "512mb", "--maxmemory-policy", "allkeys-lru")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("redis-server: %w\n%s", err, out)
	}
	return waitFor(ctx, "redis pid file", 10*time.Second, func(context.Context) error {
		if c.nativePID(Redis) == 0 {
			return errors.New(messages.T("stack.no_pid"))
		}
		return nil
	})
}

// DefaultMongoBackend is FerretDB's backend unless PEAKLOAD_MONGO_BACKEND
// says otherwise. PostgreSQL, because it behaves like MongoDB where the
// lesson needs it: concurrent inserts run in parallel (SQLite has one
// writer, so "100 at a time" is slower there than one at a time), and it
// did not wedge under step 7's counters (FerretDB 1.24 on SQLite does,
// sometimes). See steps/06-buffered-writes/README.md for the figures.
const DefaultMongoBackend = "postgresql"

// ferretDatabase is the PostgreSQL database FerretDB keeps its documents
// in: its own, beside the catalogue's, on the same server.
const ferretDatabase = "ferretdb"

// hasMongod reports whether a real MongoDB server is installed.
func hasMongod() bool { _, err := LookPath("mongod"); return err == nil }

// FerretOnPostgres reports whether the native MongoDB is FerretDB on the
// workshop's PostgreSQL (which must then run first).
func (c Config) FerretOnPostgres() bool {
	return !hasMongod() && c.MongoBackend != "sqlite"
}

// MongoDescription says which MongoDB server a stack of this kind runs,
// for `make doctor` and every results file (in English there: the JSON
// keeps one language): absolute write figures depend on it more than on
// anything else.
func (c Config) MongoDescription(kind string, lang messages.Lang) string {
	switch {
	case kind == "compose":
		return "mongod (Docker)"
	case hasMongod():
		return lang.T("stack.mongod_local")
	case c.MongoBackend == "sqlite":
		return lang.T("stack.ferret_on", "SQLite")
	case c.MongoBackend != "" && c.MongoBackend != "postgresql":
		return lang.T("stack.no_backend", c.MongoBackend)
	default:
		return lang.T("stack.ferret_on", "PostgreSQL")
	}
}

// ferretPoolConns sizes FerretDB's pool of PostgreSQL connections. FerretDB
// 1.24 holds one connection for an update's query while it takes a second
// for the write, and keeps every matched query of a multi-update command
// open until the command ends, so N concurrent updates need up to 2N
// connections and a bulk of K updates K+1: with the default (50) the
// step servers' 100 MongoDB connections deadlock it for good (issue 13's
// "wedge"; reproduction in steps/07-counters/README.md). 250 covers 100
// concurrent updates, or one bulk of 100 beside them, within PostgreSQL's
// max_connections (500, pgSettings: room for step 9's pool of 100 too).
const ferretPoolConns = 250

// FerretPostgresURL is a database of the stack's PostgreSQL for FerretDB.
func (c Config) FerretPostgresURL(database string) string {
	return strings.Replace(c.Endpoints().PostgresURL, "/workshop?", "/"+database+"?", 1) + fmt.Sprintf("&pool_max_conns=%d", ferretPoolConns)
}

// startMongo runs a real mongod when installed, else FerretDB (cmd/mongo,
// built on first use), which speaks the MongoDB wire protocol over
// PostgreSQL or SQLite. Absolute write numbers then differ from MongoDB's.
func startMongo(ctx context.Context, c Config) error {
	dir := filepath.Join(c.Dir, "mongo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cmd, err := c.MongoCommand(ctx, fmt.Sprintf("%s:%d", c.Host, c.MongoPort), dir, ferretDatabase)
	if err != nil {
		return err
	}
	logf, err := os.OpenFile(filepath.Join(c.Dir, "mongo.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // outlives this command, like a daemon
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	pid := cmd.Process.Pid
	go cmd.Wait() // reap it if it dies while we still run
	return os.WriteFile(c.pidFile(Mongo), []byte(strconv.Itoa(pid)+"\n"), 0o644)
}

// MongoCommand is the MongoDB server of this configuration, not started:
// mongod when installed, else FerretDB listening on addr and storing in the
// PostgreSQL database named (created if missing) or, with the sqlite
// backend, in dir. The stack's own and the drills' private servers use it.
func (c Config) MongoCommand(ctx context.Context, addr, dir, database string) (*exec.Cmd, error) {
	if mongod, err := LookPath("mongod"); err == nil {
		host, port, _ := strings.Cut(addr, ":")
		return exec.Command(mongod, "--port", port, "--bind_ip", host, "--dbpath", dir, "--quiet"), nil
	}
	bin, err := MongoBinary(ctx, c)
	if err != nil {
		return nil, err
	}
	args, err := c.ferretArgs(ctx, addr, dir, database)
	if err != nil {
		return nil, err
	}
	return exec.Command(bin, args...), nil
}

// DropDatabase drops a database of the stack's PostgreSQL (a drill's
// private FerretDB storage), disconnecting whoever still uses it.
func DropDatabase(ctx context.Context, c Config, name string) error {
	conn, err := pgx.Connect(ctx, strings.Replace(c.Endpoints().PostgresURL, "/workshop?", "/postgres?", 1))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	return err
}

// ferretArgs are the arguments of cmd/mongo for this configuration.
func (c Config) ferretArgs(ctx context.Context, addr, dir, database string) ([]string, error) {
	args := []string{"-listen", addr}
	switch cmp.Or(c.MongoBackend, DefaultMongoBackend) {
	case "sqlite":
		return append(args, "-backend", "sqlite", "-dir", dir), nil
	case "postgresql":
	default:
		return nil, errors.New(messages.T("stack.bad_backend", c.MongoBackend))
	}
	if err := createDatabase(ctx, c, database); err != nil {
		return nil, err
	}
	return append(args, "-backend", "postgresql", "-postgresql-url", c.FerretPostgresURL(database)), nil
}

// MongoBinary returns the FerretDB server (cmd/mongo), building it first
// when needed: c.MongoBin (PEAKLOAD_MONGO_BIN), else .workshop/bin/mongo. It is a binary
// of its own so that only the steps that write to MongoDB pay for compiling
// FerretDB (a minute or two the first time; seconds after).
func MongoBinary(ctx context.Context, c Config) (string, error) {
	bin := cmp.Or(c.MongoBin, filepath.Join(c.Dir, "bin", "mongo"))
	_, statErr := os.Stat(bin)
	if statErr == nil && c.MongoBin != "" {
		return bin, nil // built by whoever set the variable (make test, make step-N check)
	}
	if statErr != nil {
		c.Log("%s", messages.T("stack.compiling", bin))
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/peakload/workshop/cmd/mongo")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	t0 := time.Now()
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(15 * time.Second):
				c.Log("%s", messages.T("stack.still_compiling", time.Since(t0).Seconds()))
			}
		}
	}()
	err := cmd.Run()
	close(done)
	if err != nil {
		return "", fmt.Errorf("build cmd/mongo (FerretDB): %w", err)
	}
	if statErr != nil {
		c.Log("%s", messages.T("stack.compiled", time.Since(t0).Seconds()))
	}
	return bin, nil
}

// PIDs returns the process ids of the workshop's own native servers (none
// for compose), so the bench can keep them off the server's CPU.
func PIDs(c Config) []int {
	var pids []int
	for _, name := range All {
		if pid := c.nativePID(name); pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}
