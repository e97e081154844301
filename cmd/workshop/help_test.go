package main

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
)

// TestHelpInBothLanguages: every verb's help line is in the catalogue, so
// PEAKLOAD_LANG=vi workshop help is Vietnamese from its first line (issue
// 34 §2); a verb without its "help.<name>" would print the bare key.
func TestHelpInBothLanguages(t *testing.T) {
	for _, l := range []messages.Lang{messages.English, messages.Vietnamese} {
		restore := messages.Use(l)
		out := usage()
		restore()
		for _, c := range commands {
			if key := "help." + c.name; strings.Contains(out, key) {
				t.Errorf("%s: %s has no %q in texts.go", l, c.name, key)
			}
		}
	}
	restore := messages.Use(messages.Vietnamese)
	defer restore()
	if vi := usage(); !strings.HasPrefix(vi, "cách dùng:") || strings.Contains(vi, "what is installed") {
		t.Errorf("the Vietnamese usage is not Vietnamese:\n%s", vi)
	}
}
