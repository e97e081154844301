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

// A drill's few changes per second read as a rate, not as 0.
func TestRowRate(t *testing.T) {
	for v, want := range map[float64]string{0.34: "0.34", 3: "3.00", 0: "0", 51212: "51,212", 12.4: "12"} {
		if got := rowRate(v); got != want {
			t.Errorf("rowRate(%v) = %q, want %q", v, got, want)
		}
	}
}
