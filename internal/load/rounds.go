package load

import (
	"fmt"
	"os"
	"strconv"
)

// RoundsFromEnv reads RUNS: the number of interleaved rounds, def when unset.
func RoundsFromEnv(def int) (int, error) {
	v := os.Getenv("RUNS")
	if v == "" {
		return max(def, 1), nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 20 {
		return 0, fmt.Errorf("RUNS=%q: want a number of rounds from 1 to 20", v)
	}
	return n, nil
}
