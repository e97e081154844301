package stack

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// auto must not pick Compose where native binaries are installed, and it
// keeps a stack that is already up; every choice comes with its reason.
func TestChoicePrefersNativeAndExplains(t *testing.T) {
	dir := t.TempDir()
	c := Config{Dir: dir, Kind: "compose"}
	if kind, why := c.Choice(); kind != "compose" || why != "STACK=compose" {
		t.Errorf("explicit: %s, %q", kind, why)
	}
	c.Kind = "auto"
	if err := os.WriteFile(filepath.Join(dir, "stack.json"), []byte(`{"kind":"compose","started":["redis"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if kind, why := c.Choice(); kind != "compose" || !strings.Contains(why, "already up") {
		t.Errorf("a compose stack already up: %s, %q", kind, why)
	}
	os.Remove(filepath.Join(dir, "stack.json"))
	if !NativeReady() {
		t.Skip("PostgreSQL or redis-server is not installed here: the native preference cannot be shown")
	}
	if kind, why := c.Choice(); kind != "native" || !strings.Contains(why, "installed here") || c.ResolveKind() != "native" {
		t.Errorf("native binaries present: %s, %q", kind, why)
	}
}
