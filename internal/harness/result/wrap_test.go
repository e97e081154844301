package result

import (
	"slices"
	"testing"
)

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  []string
	}{
		{"", 10, nil},
		{"a bb ccc", 4, []string{"a bb", "ccc"}},
		{"ab  cd ef", 5, []string{"ab cd", "ef"}},
		{"averyveryverylongword x", 5, []string{"averyveryverylongword", "x"}},
		{"dung sai ≥ đủ", 8, []string{"dung sai", "≥ đủ"}}, // runes, not bytes
	} {
		if got := Wrap(c.in, c.width); !slices.Equal(got, c.want) {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
