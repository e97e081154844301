package result

import "testing"

// TestGrouped: the sign stays in front of the groups, whatever the count of digits.
func TestGrouped(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 64000.4: "64,000", 1234567: "1,234,567",
		-123: "-123", -123456: "-123,456", -1000: "-1,000", -0.2: "0"} {
		if got := Grouped(v, ","); got != want {
			t.Errorf("Grouped(%v) = %q, want %q", v, got, want)
		}
	}
}
