package load

import "testing"

func TestRoundsFromEnv(t *testing.T) {
	t.Setenv("RUNS", "")
	if n, err := RoundsFromEnv(0); n != 1 || err != nil {
		t.Errorf("unset: %d %v", n, err)
	}
	if n, _ := RoundsFromEnv(2); n != 2 {
		t.Errorf("unset with a step default of 2: %d", n)
	}
	t.Setenv("RUNS", "3")
	if n, err := RoundsFromEnv(2); n != 3 || err != nil {
		t.Errorf("RUNS=3: %d %v", n, err)
	}
	for _, bad := range []string{"0", "x", "-1", "100"} {
		t.Setenv("RUNS", bad)
		if _, err := RoundsFromEnv(1); err == nil {
			t.Errorf("RUNS=%s accepted", bad)
		}
	}
}
