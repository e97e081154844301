package stacktest

import (
	"net"
	"testing"
)

// Proxy listens on a free local port in front of target (a service's
// host:port) and hands each accepted connection, with a fresh one to
// target, to serve; it returns the address to give the code under test.
// A test that counts what crosses a service's door (statements, commands,
// bytes) does so in serve, before it forwards: no other client's traffic,
// no waiting. Closed when t ends.
func Proxy(t testing.TB, target string, serve func(client, server net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("stacktest: proxy to %s: %v", target, err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			serve(client, server)
		}
	}()
	return ln.Addr().String()
}
