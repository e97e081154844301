package redisfault

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
)

// serve carries one client connection: each command is read whole, then
// faulted or sent to Redis, whose one reply is copied back before the next
// command is read. go-redis pipelines its handshake; the replies keep the
// commands' order.
func (p *Proxy) serve(client net.Conn) {
	defer client.Close()
	if !p.open.Add(client) {
		return
	}
	defer p.open.Remove(client)
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		return // the client sees its connection closed, as with a Redis gone
	}
	defer server.Close()
	if !p.open.Add(server) {
		return
	}
	defer p.open.Remove(server)

	cr, cw := bufio.NewReader(client), bufio.NewWriter(client)
	sr := bufio.NewReader(server)
	for {
		raw, name, err := readCommand(cr)
		if err != nil {
			return
		}
		switch f := p.fault(name); {
		case f.hangUp:
			return
		case f.stall:
			p.hold(name, cr)
			return
		case f.reply != "":
			fmt.Fprintf(cw, "-%s\r\n", f.reply)
		default:
			if _, err := server.Write(raw); err != nil {
				return
			}
			if err := copyReply(cw, sr); err != nil {
				return
			}
		}
		if err := cw.Flush(); err != nil {
			return
		}
	}
}

// hold answers nothing and waits for the client to hang up, which it then
// reports as a call abandoned (unless the proxy itself is closing).
func (p *Proxy) hold(name string, cr *bufio.Reader) {
	select {
	case p.stalled <- name:
	default: // nobody is counting this many
	}
	_, _ = io.Copy(io.Discard, cr)
	if !p.open.Closed() {
		select {
		case p.abandoned <- struct{}{}:
		default:
		}
	}
}

// readCommand reads one command as clients send it, an array of bulk
// strings, and returns its bytes and its lower-case name.
func readCommand(r *bufio.Reader) (raw []byte, name string, err error) {
	line, err := readLine(r)
	if err != nil {
		return nil, "", err
	}
	if line[0] != '*' {
		return nil, "", fmt.Errorf("redisfault: a command starts with *, got %q", line)
	}
	n, err := strconv.Atoi(string(line[1 : len(line)-2]))
	if err != nil || n < 1 {
		return nil, "", fmt.Errorf("redisfault: command length %q", line)
	}
	raw = append(raw, line...)
	for i := range n {
		head, err := readLine(r)
		if err != nil {
			return nil, "", err
		}
		size, err := strconv.Atoi(string(head[1 : len(head)-2]))
		if head[0] != '$' || err != nil || size < 0 {
			return nil, "", fmt.Errorf("redisfault: argument header %q", head)
		}
		arg := make([]byte, size+2)
		if _, err := io.ReadFull(r, arg); err != nil {
			return nil, "", err
		}
		if i == 0 {
			name = strings.ToLower(string(arg[:size]))
		}
		raw = append(append(raw, head...), arg...)
	}
	return raw, name, nil
}

// copyReply copies one whole RESP2 or RESP3 reply from r to w: the proxy
// must know where a reply ends to answer the next command itself.
func copyReply(w io.Writer, r *bufio.Reader) error {
	line, err := readLine(r)
	if err != nil {
		return err
	}
	if _, err := w.Write(line); err != nil {
		return err
	}
	n := 0
	switch line[0] {
	case '+', '-', ':', '_', ',', '#', '(':
		return nil // the line is the reply
	case '$', '!', '=', '*', '~', '>', '%', '|':
		if n, err = strconv.Atoi(string(line[1 : len(line)-2])); err != nil {
			return fmt.Errorf("redisfault: reply length %q: %w", line, err)
		}
	default:
		return fmt.Errorf("redisfault: unknown reply type %q", line)
	}
	switch line[0] {
	case '$', '!', '=': // a blob: n bytes and CRLF, none when null
		if n < 0 {
			return nil
		}
		_, err := io.CopyN(w, r, int64(n)+2)
		return err
	case '%': // a map: n keys and n values
		n *= 2
	case '|': // attributes: n pairs, then the reply they describe
		n = n*2 + 1
	}
	for range max(n, 0) {
		if err := copyReply(w, r); err != nil {
			return err
		}
	}
	return nil
}

// readLine reads up to and including CRLF.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadBytes('\n')
	if err != nil {
		return nil, err
	}
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return nil, errors.New("redisfault: a line must end in CRLF and hold a type")
	}
	return line, nil
}
