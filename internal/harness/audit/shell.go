package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// The shell (step 0): what every server needs before any optimisation.

// shellStep is the step column of the shell's findings: a function, since a
// package-level variable is set before init registers the audit's texts.
func shellStep() string { return english("table.audit.s_shell") }

// bodyLimit sends an oversized body: a server with a limit answers 413
// before reading it all; one without reads (and holds) whatever it is sent.
func bodyLimit(ctx context.Context, c Config, client *http.Client) Finding {
	f := Finding{Practice: english("table.audit.p_body", c.BodySize>>20), Step: shellStep()}
	body := []byte(`{"pad":"` + strings.Repeat("x", c.BodySize) + `"}`)
	t0 := time.Now()
	a, sent, err := c.sendCounted(ctx, client, c.Post, body)
	if err != nil && refusedMidBody(err) {
		// The service answered and closed while the body was still being
		// written: Go's client reports the failed write, not the answer.
		// Sent again on a bare connection that reads while it writes.
		a.status, sent, err = c.postReadingWhileWriting(ctx, c.Post, body)
	}
	took := time.Since(t0).Round(time.Millisecond)
	switch {
	case err != nil && (errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Timeout")):
		f.Mark, f.Verdict, f.Evidence = Missing, english("table.audit.hangs"), english("table.audit.no_answer", c.Post, len(body), err)
	case err != nil:
		// A server that answers 413 and closes before reading the rest can
		// make the client's write fail: that is a refusal too, said as such.
		f.Mark, f.Verdict, f.Evidence = NotJudged, english("table.audit.not_judged"), english("table.audit.post_error", c.Post, len(body), err, took)
	case a.status == http.StatusRequestEntityTooLarge:
		f.Mark, f.Verdict, f.Evidence = Pass, "413 ✓", english("table.audit.refused", c.Post, len(body), took)
	case a.status == http.StatusNotFound || a.status == http.StatusMethodNotAllowed:
		f.Mark, f.Verdict, f.Evidence = NotJudged, english("table.audit.not_judged"), english("table.audit.no_body_route", c.Post, a.status)
	default:
		f.Mark, f.Verdict = Missing, english("table.audit.not_413", a.status)
		f.Evidence = english("table.audit.answered_after", c.Post, len(body), a.status, took, sent)
	}
	return f
}

// refusedMidBody says err is a write cut by the service: a broken pipe or
// a reset, what a 413 sent before the body is read leaves behind.
func refusedMidBody(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) ||
		strings.Contains(err.Error(), "broken pipe") || strings.Contains(err.Error(), "connection reset")
}

// postReadingWhileWriting POSTs body on a connection of its own, writing
// it in one goroutine while reading the answer in this one: the status of
// an answer sent before the body was all read, and how much of the body
// had been written by then.
func (c Config) postReadingWhileWriting(ctx context.Context, path string, body []byte) (int, int64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", c.url(path), bytes.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	req.Host, req.ContentLength = c.Target.Host, int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", req.URL.Host)
	if err != nil {
		return 0, 0, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	var written atomic.Int64
	go func() {
		w := &countingWriter{conn, counting{&written}}
		_ = req.Write(w) // a write the service cuts short is what this measures
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		return 0, written.Load(), err
	}
	resp.Body.Close()
	return resp.StatusCode, written.Load(), nil
}

// counting adds to n the bytes each call it wraps passed on: one count
// for a writer's and a reader's side alike.
type counting struct{ n *atomic.Int64 }

func (c counting) add(n int, err error) (int, error) {
	c.n.Add(int64(n))
	return n, err
}

// countingWriter counts what it passes on.
type countingWriter struct {
	w io.Writer
	counting
}

func (c *countingWriter) Write(p []byte) (int, error) { return c.add(c.w.Write(p)) }

// sendCounted POSTs body as JSON and returns the answer and how many of
// body's bytes had been sent when its first byte came back: what was
// observed, where "the service read it all" would be a guess.
func (c Config) sendCounted(ctx context.Context, client *http.Client, path string, body []byte) (answer, int64, error) {
	var read, atAnswer atomic.Int64
	atAnswer.Store(-1)
	trace := &httptrace.ClientTrace{GotFirstResponseByte: func() { atAnswer.Store(read.Load()) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), "POST", c.url(path), &countingReader{bytes.NewReader(body), counting{&read}})
	if err != nil {
		return answer{}, 0, err
	}
	req.Host, req.ContentLength = c.Target.Host, int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return answer{}, read.Load(), fmt.Errorf("%s %s: %w", req.Method, path, err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	return answer{status: resp.StatusCode, header: resp.Header, size: n, closed: resp.Close}, atAnswer.Load(), err
}

// countingReader counts what the client's transport took of a body.
type countingReader struct {
	r io.Reader
	counting
}

func (c *countingReader) Read(p []byte) (int, error) { return c.add(c.r.Read(p)) }

// malformedJSON sends broken JSON: a client's mistake is a 4xx that says
// what was wrong, as JSON, not a 500 or a plain-text page.
func malformedJSON(ctx context.Context, c Config, client *http.Client) Finding {
	f := Finding{Practice: english("table.audit.p_json"), Step: shellStep()}
	a, err := c.send(ctx, client, "POST", c.Post, []byte(`{"event_name": "click", "data": `), map[string]string{"Content-Type": "application/json"})
	if err != nil {
		f.Mark, f.Verdict, f.Evidence = NotJudged, english("table.audit.not_judged"), err.Error()
		return f
	}
	ev := english("table.audit.truncated", c.Post, a.status, a.header.Get("Content-Type"), a.body)
	f.Evidence = ev
	switch {
	case a.status == http.StatusNotFound || a.status == http.StatusMethodNotAllowed:
		f.Mark, f.Verdict = NotJudged, english("table.audit.not_judged")
		f.Evidence = ev + "; " + english("table.audit.no_json_route")
	case a.status >= 400 && a.status < 500 && json.Valid(a.body):
		f.Mark, f.Verdict = Pass, english("table.audit.json_ok", a.status)
	case a.status >= 400 && a.status < 500:
		f.Mark, f.Verdict = Missing, english("table.audit.not_json", a.status)
	default:
		f.Mark, f.Verdict = Missing, english("table.audit.not_4xx", a.status)
	}
	return f
}

// keepAlive sends two GETs in a row, each body read whole: the second
// should reuse the first's connection (a new TCP handshake per request
// costs both sides).
func keepAlive(ctx context.Context, c Config) Finding {
	f := Finding{Practice: english("table.audit.p_keepalive"), Step: shellStep()}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	defer client.CloseIdleConnections()
	var reused []bool
	for range 2 {
		trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { reused = append(reused, i.Reused) }}
		a, err := c.send(httptrace.WithClientTrace(ctx, trace), client, "GET", c.Target.Path, nil, nil)
		if err != nil {
			f.Mark, f.Verdict, f.Evidence = NotJudged, english("table.audit.not_judged"), err.Error()
			return f
		}
		if a.closed {
			f.Mark, f.Verdict, f.Evidence = Missing, english("table.audit.closed"), english("table.audit.says_close")
			return f
		}
	}
	if len(reused) == 2 && reused[1] {
		f.Mark, f.Verdict, f.Evidence = Pass, english("table.audit.kept"), english("table.audit.reused")
		return f
	}
	f.Mark, f.Verdict, f.Evidence = Missing, english("table.audit.not_kept"), english("table.audit.new_conn")
	return f
}

// slowloris opens a connection and sends its headers one line a second,
// never finishing them: a server with a header timeout closes it; one
// without keeps a goroutine and a file for it as long as the client likes.
func slowloris(ctx context.Context, c Config) Finding {
	f := Finding{Practice: english("table.audit.p_slowloris", c.SlowlorisBound), Step: shellStep()}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", strings.TrimPrefix(c.Target.Base, "http://"))
	if err != nil {
		f.Mark, f.Verdict, f.Evidence = NotJudged, english("table.audit.not_judged"), err.Error()
		return f
	}
	defer conn.Close()
	t0 := time.Now()
	closed := make(chan string, 1)
	go func() {
		b := make([]byte, 512)
		n, err := conn.Read(b) // returns when the server answers or closes
		closed <- english("table.audit.bytes_then", n, err)
	}()
	requestLine(conn, c)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	deadline := time.After(c.SlowlorisBound)
	for i := 0; ; i++ {
		select {
		case how := <-closed:
			f.Mark, f.Verdict = Pass, english("table.audit.closed_ok")
			f.Evidence = english("table.audit.ended", time.Since(t0).Round(100*time.Millisecond), how)
			return f
		case <-deadline:
			f.Mark, f.Verdict = Missing, english("table.audit.held_open")
			f.Evidence = english("table.audit.still_open", c.SlowlorisBound, i)
			return f
		case <-ctx.Done():
			f.Mark, f.Verdict, f.Evidence = NotJudged, english("table.audit.not_judged"), english("table.audit.interrupted")
			return f
		case <-tick.C:
			headerLine(conn, i)
		}
	}
}

// requestLine and headerLine are the slowloris probe's bytes on the wire:
// HTTP, the same in every language.
func requestLine(w io.Writer, c Config) {
	_, _ = fmt.Fprintf(w, "GET %s HTTP/1.1\r\nHost: %s\r\n", c.Target.Path, c.Target.Host)
}

func headerLine(w io.Writer, i int) { _, _ = fmt.Fprintf(w, "X-Slow-%d: 1\r\n", i) }
