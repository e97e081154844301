package metrics

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestCountResponse(t *testing.T) {
	for range 3 {
		CountResponse("/t/:id", "GET", 200, 100)
	}
	CountResponse("/t/:id", "GET", 404, 20)
	CountResponse("/t/:id", "BREW", 405, 1)
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"200s", testutil.ToFloat64(Requests.WithLabelValues("/t/:id", "GET", "200")), 3},
		{"200 bytes", testutil.ToFloat64(ResponseBytes.WithLabelValues("/t/:id", "GET", "200")), 300},
		{"404s", testutil.ToFloat64(Requests.WithLabelValues("/t/:id", "GET", "404")), 1},
		{"an unknown method, as other", testutil.ToFloat64(Requests.WithLabelValues("/t/:id", "other", "405")), 1},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
}

// BenchmarkCountResponse is the counting's price per response, run in
// parallel as a loaded server would.
func BenchmarkCountResponse(b *testing.B) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			CountResponse("/empty", "GET", 200, 1400)
		}
	})
}
