package dbaddr

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Linux's default ephemeral range (net.ipv4.ip_local_port_range): a fixed
// listener in it can find its port taken by an outgoing connection.
const ephemeralLow, ephemeralHigh = 32768, 60999

func TestDefaultPortsBelowEphemeralRange(t *testing.T) {
	for name, port := range map[string]int{"PostgreSQL": DefaultPGPort, "Redis": DefaultRedisPort, "MongoDB": DefaultMongoPort} {
		if port <= 1024 || port >= ephemeralLow {
			t.Errorf("%s default port %d: want 1024 < port < %d (below the ephemeral range, not privileged)", name, port, ephemeralLow)
		}
	}
	// Not the databases' own ports: a learner's PostgreSQL/Redis/MongoDB may run.
	for _, own := range []int{5432, 6379, 27017} {
		if own == DefaultPGPort || own == DefaultRedisPort || own == DefaultMongoPort {
			t.Errorf("default port %d is a database's own port", own)
		}
	}
}

// portMention is a port the repository's files tell a learner or a
// program to use: host:port, `-p N`, PEAKLOAD_*_PORT=N, ${PEAKLOAD_*_PORT:-N}.
var portMention = regexp.MustCompile(`(?:127\.0\.0\.1:|localhost:|\s-p\s+|_PORT=|_PORT:-)(\d{4,5})\b`)

// Every port the code, the Compose file, the scripts and the prose name is
// outside the ephemeral range: the defaults moved once, and a stale copy in a
// README or a slide would send a learner to the old one.
func TestNoDocumentedPortInEphemeralRange(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".workshop", "results", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".slide", ".yaml", ".yml", ".js", ".sh", ".toml":
		default:
			if d.Name() != "Makefile" && d.Name() != "Dockerfile" && rel != filepath.Join(".ci", "run") {
				return nil
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range portMention.FindAllStringSubmatch(line, -1) {
				if p, _ := strconv.Atoi(m[1]); p >= ephemeralLow && p <= ephemeralHigh {
					t.Errorf("%s:%d: port %d is in the ephemeral range %d–%d: %s", rel, i+1, p, ephemeralLow, ephemeralHigh, strings.TrimSpace(line))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A parent's URL wins over the ports; a port that is not one is an error
// naming its variable, not the default in its place.
func TestParse(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	p, e, err := Parse(env(map[string]string{"PEAKLOAD_PG_PORT": "15732", "PEAKLOAD_REDIS_ADDR": "redis:6379"}))
	if err != nil || p.PGPort != 15732 || p.RedisPort != DefaultRedisPort || e.RedisAddr != "redis:6379" ||
		e.PostgresURL != For(DefaultHost, 15732, 0, 0).PostgresURL {
		t.Errorf("got %+v %+v %v; want PG on 15732, Redis at the parent's redis:6379", p, e, err)
	}
	for _, bad := range []string{"-1", "0", "x", "65536"} {
		if _, _, err := Parse(env(map[string]string{"PEAKLOAD_MONGO_PORT": bad})); err == nil || !strings.Contains(err.Error(), "PEAKLOAD_MONGO_PORT") {
			t.Errorf("PEAKLOAD_MONGO_PORT=%s: %v, want an error naming it", bad, err)
		}
	}
}
