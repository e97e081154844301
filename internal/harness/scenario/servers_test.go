package scenario

import (
	"testing"

	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/given/replica"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/given/writes"
)

// TestConstantsAreTheServers: the few names and values the bench shares
// with the step servers are written twice, here and in the servers'
// packages, so that the learner's CLI links no server (echo, the caches,
// the write path): this holds each pair equal. (Routes need no pair: both
// sides read internal/given/routes.)
func TestConstantsAreTheServers(t *testing.T) {
	layers := []server.Layer{server.Bare, server.Timeouts, server.Guards, server.Full}
	if len(shellLayers) != len(layers) {
		t.Fatalf("the bench names %d shell layers, internal/given/server %d", len(shellLayers), len(layers))
	}
	for i, l := range layers {
		if shellLayers[i] != l.String() {
			t.Errorf("shell layer %d: the bench says %q, internal/given/server %q", i, shellLayers[i], l)
		}
	}
	for _, c := range []struct{ name, bench, server string }{
		{"the changes channel", changesChannel, replica.Channel},
	} {
		if c.bench != c.server {
			t.Errorf("%s: the bench says %q, the server %q", c.name, c.bench, c.server)
		}
	}
	if endpoints.ItemsPrefix != routes.Prefix(routes.Items) {
		t.Errorf("step 9's item prefix %q is not routes.Items' %q", endpoints.ItemsPrefix, routes.Prefix(routes.Items))
	}
	if flushInterval != writes.FlushInterval {
		t.Errorf("the flush interval: the bench says %v, internal/given/writes %v", flushInterval, writes.FlushInterval)
	}
}
