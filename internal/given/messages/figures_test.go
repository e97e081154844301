package messages

import "testing"

func TestSwapDecimalMarks(t *testing.T) {
	for in, want := range map[string]string{
		"5,3 ms, 1.537 req/s.": "5.3 ms, 1,537 req/s.", // the sentence's own marks stay
		"1,234.5":              "1.234,5",
		"7":                    "7",
	} {
		if got := SwapDecimalMarks(in); got != want {
			t.Errorf("SwapDecimalMarks(%q) = %q, want %q", in, got, want)
		}
	}
}
