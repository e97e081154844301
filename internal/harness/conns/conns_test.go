package conns

import (
	"errors"
	"io"
	"net"
	"testing"
)

// Close cuts what is in the set, not what was removed, and a connection
// added afterwards is refused.
func TestCloseCutsWhatIsOpenAndRefusesLaterOnes(t *testing.T) {
	var s Set
	kept, keptPeer := net.Pipe()
	gone, gonePeer := net.Pipe()
	defer keptPeer.Close()
	defer gone.Close()
	defer gonePeer.Close()
	if !s.Add(kept) || !s.Add(gone) {
		t.Fatal("Add on an open set refused a connection")
	}
	s.Remove(gone)
	if s.Closed() {
		t.Error("Closed before Close")
	}
	s.Close()
	if !s.Closed() {
		t.Error("not Closed after Close")
	}
	if _, err := kept.Write([]byte("x")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("a connection in the set at Close: write error %v, want it closed (%v)", err, io.ErrClosedPipe)
	}
	go func() { _, _ = gonePeer.Read(make([]byte, 1)) }()
	if _, err := gone.Write([]byte("x")); err != nil {
		t.Errorf("a removed connection was cut by Close: write error %v", err)
	}
	late, latePeer := net.Pipe()
	defer late.Close()
	defer latePeer.Close()
	if s.Add(late) {
		t.Error("Add after Close accepted a connection the cut has missed")
	}
}
