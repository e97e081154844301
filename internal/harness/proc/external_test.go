package proc

import (
	"os"
	"testing"
)

// An External server (the Compose bench profile's app container) is
// measured at its address, and stopping it leaves it alone.
func TestExternalServer(t *testing.T) {
	p := External("http://app:8080")
	if p.Target != "http://app:8080" || p.Pid() != 0 || p.PeakRSSMB() != 0 {
		t.Fatalf("External: target %q pid %d rss %v", p.Target, p.Pid(), p.PeakRSSMB())
	}
	if err := p.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := p.Signal(os.Interrupt); err == nil {
		t.Fatal("Signal to another container's server: want an error")
	}
}
