package result

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
)

// TestPrintInVietnamese: PEAKLOAD_LANG=vi prints a committed reference
// run's table with Vietnamese headers and verdict words, and the result's
// JSON, which stores no sentence of either language, is byte for byte the
// same after printing in both.
func TestPrintInVietnamese(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "results", "reference", "step-3.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(&r)
	print := func(l messages.Lang) string {
		defer messages.Use(l)()
		var b bytes.Buffer
		r.Print(&b)
		return b.String()
	}
	en, vi := print(messages.English), print(messages.Vietnamese)
	for _, want := range []string{"REPRODUCED", "NOT reproduced", "variant", "verdict:"} {
		if !strings.Contains(en, want) {
			t.Errorf("English table lacks %q:\n%s", want, en)
		}
	}
	for _, want := range []string{"TÁI HIỆN ĐƯỢC", "KHÔNG tái hiện được", "biến thể", "kết luận:", "bước 3"} {
		if !strings.Contains(vi, want) {
			t.Errorf("Vietnamese table lacks %q:\n%s", want, vi)
		}
	}
	for _, gone := range []string{"REPRODUCED", "verdict:", "the claims beside ours"} {
		if strings.Contains(vi, gone) {
			t.Errorf("Vietnamese table still says %q:\n%s", gone, vi)
		}
	}
	if after, _ := json.Marshal(&r); !bytes.Equal(before, after) {
		t.Error("printing changed the result's JSON")
	}
	if strings.Contains(string(before), "TÁI HIỆN") || strings.Contains(string(before), "REPRODUCED") {
		t.Error("the result's JSON stores a verdict sentence: it must stay language-neutral")
	}
}
