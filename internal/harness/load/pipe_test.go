package load

import (
	"bufio"
	"io"
	"net"
	"time"
)

// pipeServer is a server on in-memory pipes, for a run inside a
// testing/synctest bubble: its clock is the bubble's fake one, so a stall
// lasts exactly as long as the test says, however loaded the machine.
// hold says how long a request arriving at a given time is held before
// its empty 200; the returned dial opens one connection to it.
func pipeServer(hold func(now time.Time) time.Duration) func(addr string) (net.Conn, error) {
	return func(string) (net.Conn, error) {
		client, server := net.Pipe()
		go servePipe(server, hold)
		return client, nil
	}
}

// servePipe answers each request on c, a GET without a body, until the
// client closes its end.
func servePipe(c net.Conn, hold func(now time.Time) time.Duration) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		for { // the request line and headers, up to the blank line
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			if line == "\r\n" {
				break
			}
		}
		time.Sleep(hold(time.Now()))
		if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"); err != nil {
			return
		}
	}
}

// stallFrom holds every request that arrives during [from, from+d) until
// the stall ends (a GC pause, a lock, a stuck database as a client sees
// it) and answers the others at once.
func stallFrom(from time.Time, d time.Duration) func(now time.Time) time.Duration {
	return func(now time.Time) time.Duration {
		if !now.Before(from) && now.Before(from.Add(d)) {
			return from.Add(d).Sub(now)
		}
		return 0
	}
}
