package result

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRuntimesAreRecordedAndPrinted: with ORIGINAL=1 the results file keeps
// the originals' runtimes (a Node figure is that Node's), the table's head
// names them, and a run without them stores and prints nothing extra.
func TestRuntimesAreRecordedAndPrinted(t *testing.T) {
	r := &Result{Machine: Machine{Stack: "native", Runtimes: map[string]string{"node": "20.20.2", "bun": "1.4.5"}}}
	if line := r.stackLine(); !strings.HasSuffix(line, "; bun 1.4.5; node 20.20.2") {
		t.Errorf("stack line %q does not end with the runtimes, sorted", line)
	}
	b, err := json.Marshal(r.Machine)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"runtimes":{"bun":"1.4.5","node":"20.20.2"}`) {
		t.Errorf("results JSON lacks the runtimes: %s", b)
	}
	plain := &Result{Machine: Machine{Stack: "native"}}
	if b, _ := json.Marshal(plain.Machine); strings.Contains(string(b), "runtimes") || strings.Contains(plain.stackLine(), ";") {
		t.Errorf("a run without ORIGINAL=1 records or prints runtimes: %s / %q", b, plain.stackLine())
	}
}
