package comparison

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/result"
)

// A lead's folder: one subfolder per person; a person's latest.json beside
// the timestamped file it copies is one run, not two.
func TestReadFolderOneRowPerPersonAndRun(t *testing.T) {
	ref, err := os.ReadFile(filepath.Join("..", "..", "..", "results", "reference", "step-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	ref = withoutWho(t, ref) // the reference names its recorder: here the folders name the people
	dir := t.TempDir()
	for _, f := range []string{"alice/step-2/20260101T000000Z.json", "alice/step-2/latest.json", "bob/step-2.json"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, ref, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "bob", "notes.json"), []byte(`{"not":"a result"}`), 0o644)
	byStep, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(byStep) != 1 || len(byStep[2]) != 2 {
		t.Fatalf("got %d steps, step 2 with %d rows: want one step, alice and bob", len(byStep), len(byStep[2]))
	}
	header, rows := StepTable(byStep[2], messages.English)
	if rows[0][0] != "alice" || rows[1][0] != "bob" || len(rows[0]) != len(header) {
		t.Errorf("rows %v under %v", rows, header)
	}
	if header[4] != "A2" || rows[0][4] != "✓" {
		t.Errorf("claim A2's column: %v / %v", header, rows[0])
	}
}

// The lead's table under PEAKLOAD_LANG=vi: its headers and words are
// Vietnamese, the claims' ids, figures and marks the same as in English.
func TestStepTableInVietnamese(t *testing.T) {
	ref, err := os.ReadFile(filepath.Join("..", "..", "..", "results", "reference", "step-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bob.json"), ref, 0o644)
	byStep, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	enHeader, enRows := StepTable(byStep[2], messages.English)
	viHeader, viRows := StepTable(byStep[2], messages.Vietnamese)
	for i, h := range enHeader {
		if claim := slices.ContainsFunc(byStep[2][0].Result.Claims, func(c result.Claim) bool { return c.ID == h }); !claim && viHeader[i] == h {
			t.Errorf("column %q is not translated", h)
		}
	}
	if viHeader[0] != "người" || viRows[0][2] != "lời giải mẫu" && viRows[0][2] != "của họ" {
		t.Errorf("Vietnamese table: %q / %q", viHeader, viRows[0])
	}
	if enRows[0][4] != viRows[0][4] || enRows[0][len(enRows[0])-1] != viRows[0][len(viRows[0])-1] {
		t.Errorf("a verdict mark or a figure changed with the language: %q / %q", enRows[0], viRows[0])
	}
}

// withoutWho is a results file with no recorder's name, as a run whose
// folder is the only hint of whose it is.
func withoutWho(t *testing.T, b []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if p, ok := doc["params"].(map[string]any); ok {
		delete(p, "who")
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
