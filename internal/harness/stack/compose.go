package stack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
)

// ComposeFile is the Compose stack, relative to the repository root.
const ComposeFile = "compose/compose.yaml"

func (c Config) compose(ctx context.Context, args ...string) ([]byte, error) {
	file := filepath.Join(filepath.Dir(c.Dir), ComposeFile)
	cmd := exec.CommandContext(ctx, "docker", append([]string{"compose", "-f", file, "-p", "peakload"}, args...)...)
	cmd.Env = append(os.Environ(),
		fmt.Sprintf("PEAKLOAD_PG_PORT=%d", c.PGPort),
		fmt.Sprintf("PEAKLOAD_REDIS_PORT=%d", c.RedisPort),
		fmt.Sprintf("PEAKLOAD_MONGO_PORT=%d", c.MongoPort))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("docker compose %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return out, nil
}

func upCompose(ctx context.Context, c Config, name string) (bool, error) {
	out, err := c.compose(ctx, "ps", "-q", "--status", "running", name)
	if err == nil && len(strings.TrimSpace(string(out))) > 0 {
		return false, c.ready(ctx, name, 60*time.Second)
	}
	if listening(c.Host, c.port(name)) {
		return false, errors.New(messages.T("stack.port_taken_compose", c.port(name), c.Host, envName(name)))
	}
	if _, err := c.compose(ctx, "up", "-d", "--wait", name); err != nil {
		return false, err
	}
	c.Log("%s", messages.T("stack.started", name, c.Host, c.port(name), "compose"))
	return true, c.ready(ctx, name, 60*time.Second)
}

func downCompose(c Config, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := c.compose(ctx, "rm", "--stop", "--force", name)
	return err
}
