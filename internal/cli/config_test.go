package cli

import (
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// A bad value is said at once, naming its variable; every bad value at once.
func TestBadValuesNameTheirVariable(t *testing.T) {
	for name, value := range map[string]string{"SOLUTION": "yes please", "VUS": "0", "ITERATIONS": "x", "DURATION": "-3",
		"RUNS": "21", "TOOL": "ab", "ARRIVAL": "poisson", "LATENCY": "fast", "PEAKLOAD_SERVER_URL": "app:8080"} {
		_, err := parse(env(map[string]string{name: value}))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%q: error %v, want one naming %s", name, value, err, name)
		}
	}
	_, err := parse(env(map[string]string{"VUS": "x", "RUNS": "0"}))
	if err == nil || !strings.Contains(err.Error(), "VUS") || !strings.Contains(err.Error(), "RUNS") {
		t.Errorf("two bad values: %v, want both named", err)
	}
}

func TestValuesAreRead(t *testing.T) {
	c, err := parse(env(map[string]string{"SOLUTION": "1", "QUICK": "1", "VUS": "50", "DURATION": "2.5", "RUNS": "3",
		"TOOL": "wrk", "ARRIVAL": "rate", "RATE": "2000", "CAPACITY": "0", "PEAKLOAD_SERVER_URL": "http://app:8080/"}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Solution: true, Quick: true, VUs: 50, Duration: 2500 * time.Millisecond, Runs: 3, Tool: "wrk",
		Arrival: "rate", Rate: 2000, ServerURL: "http://app:8080"}
	if c != want {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	if c, _ := parse(env(map[string]string{"SOLUTION": "0", "QUICK": "0"})); c.Solution || c.Quick {
		t.Errorf("SOLUTION=0 QUICK=0: %+v, want both off", c)
	}
}
