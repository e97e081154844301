package catalog

import (
	"strings"
	"testing"
)

// A bad PEAKLOAD_PG_POOL stops the server with the variable named, rather
// than benching the default pool as if it were the one asked for.
func TestPoolSizeNamesABadValue(t *testing.T) {
	if n, err := poolSize(""); err != nil || n != DefaultPool {
		t.Errorf(`poolSize("") = %d, %v; want DefaultPool (%d)`, n, err, DefaultPool)
	}
	if n, err := poolSize("4"); err != nil || n != 4 {
		t.Errorf(`poolSize("4") = %d, %v; want 4`, n, err)
	}
	for _, bad := range []string{"abc", "0", "-1", "4.5"} {
		if _, err := poolSize(bad); err == nil || !strings.Contains(err.Error(), "PEAKLOAD_PG_POOL") {
			t.Errorf("poolSize(%q) = %v; want an error naming PEAKLOAD_PG_POOL", bad, err)
		}
	}
}
