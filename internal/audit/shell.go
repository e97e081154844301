package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"time"
)

// The shell (step 0): what every server needs before any optimisation.

const shellStep = "0 ceilings (the shell)"

// bodyLimit sends an oversized body: a server with a limit answers 413
// before reading it all; one without reads (and holds) whatever it is sent.
func bodyLimit(ctx context.Context, c Config, client *http.Client) Finding {
	f := Finding{Practice: fmt.Sprintf("oversized body (%d MiB) refused with 413", c.BodySize>>20), Step: shellStep}
	body := []byte(`{"pad":"` + strings.Repeat("x", c.BodySize) + `"}`)
	t0 := time.Now()
	a, err := c.send(ctx, client, "POST", c.Post, body, map[string]string{"Content-Type": "application/json"})
	took := time.Since(t0).Round(time.Millisecond)
	switch {
	case err != nil && (errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Timeout")):
		f.Mark, f.Verdict, f.Evidence = Missing, "hangs", fmt.Sprintf("POST %s with %d bytes: no answer (%v)", c.Post, len(body), err)
	case err != nil:
		// A server that answers 413 and closes before reading the rest can
		// make the client's write fail: that is a refusal too, said as such.
		f.Mark, f.Verdict, f.Evidence = NotJudged, "not judged", fmt.Sprintf("POST %s with %d bytes: %v after %s", c.Post, len(body), err, took)
	case a.status == http.StatusRequestEntityTooLarge:
		f.Mark, f.Verdict, f.Evidence = Pass, "413 ✓", fmt.Sprintf("POST %s with %d bytes → 413 in %s", c.Post, len(body), took)
	case a.status == http.StatusNotFound || a.status == http.StatusMethodNotAllowed:
		f.Mark, f.Verdict, f.Evidence = NotJudged, "not judged", fmt.Sprintf("POST %s → %d: name a route that takes a body with -post", c.Post, a.status)
	default:
		f.Mark, f.Verdict, f.Evidence = Missing, fmt.Sprintf("%d, not 413", a.status), fmt.Sprintf("POST %s with %d bytes → %d in %s: the whole body was read", c.Post, len(body), a.status, took)
	}
	return f
}

// malformedJSON sends broken JSON: a client's mistake is a 4xx that says
// what was wrong, as JSON, not a 500 or a plain-text page.
func malformedJSON(ctx context.Context, c Config, client *http.Client) Finding {
	f := Finding{Practice: "malformed JSON gets a 4xx with a JSON error", Step: shellStep}
	a, err := c.send(ctx, client, "POST", c.Post, []byte(`{"event_name": "click", "data": `), map[string]string{"Content-Type": "application/json"})
	if err != nil {
		f.Mark, f.Verdict, f.Evidence = NotJudged, "not judged", err.Error()
		return f
	}
	ev := fmt.Sprintf("POST %s with a truncated JSON body → %d, %s: %.80q", c.Post, a.status, a.header.Get("Content-Type"), a.body)
	f.Evidence = ev
	switch {
	case a.status == http.StatusNotFound || a.status == http.StatusMethodNotAllowed:
		f.Mark, f.Verdict = NotJudged, "not judged"
		f.Evidence = ev + "; name a route that takes JSON with -post"
	case a.status >= 400 && a.status < 500 && json.Valid(a.body):
		f.Mark, f.Verdict = Pass, fmt.Sprintf("%d JSON ✓", a.status)
	case a.status >= 400 && a.status < 500:
		f.Mark, f.Verdict = Missing, fmt.Sprintf("%d, body not JSON", a.status)
	default:
		f.Mark, f.Verdict = Missing, fmt.Sprintf("%d, not a 4xx", a.status)
	}
	return f
}

// keepAlive sends two GETs in a row: the second should reuse the first's
// connection (a new TCP handshake per request costs both sides).
func keepAlive(ctx context.Context, c Config) Finding {
	f := Finding{Practice: "keep-alive honoured", Step: shellStep}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	defer client.CloseIdleConnections()
	var reused []bool
	for range 2 {
		trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { reused = append(reused, i.Reused) }}
		a, err := c.send(httptrace.WithClientTrace(ctx, trace), client, "GET", c.Target.Path, nil, nil)
		if err != nil {
			f.Mark, f.Verdict, f.Evidence = NotJudged, "not judged", err.Error()
			return f
		}
		if conn := a.header.Get("Connection"); strings.EqualFold(conn, "close") {
			f.Mark, f.Verdict, f.Evidence = Missing, "closed", "the answer says Connection: close"
			return f
		}
	}
	if len(reused) == 2 && reused[1] {
		f.Mark, f.Verdict, f.Evidence = Pass, "kept ✓", "the second GET reused the first one's connection"
		return f
	}
	f.Mark, f.Verdict, f.Evidence = Missing, "not kept", "the second GET needed a new connection"
	return f
}

// slowloris opens a connection and sends its headers one line a second,
// never finishing them: a server with a header timeout closes it; one
// without keeps a goroutine and a file for it as long as the client likes.
func slowloris(ctx context.Context, c Config) Finding {
	f := Finding{Practice: fmt.Sprintf("a slowloris connection closed within %s", c.SlowlorisBound), Step: shellStep}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", strings.TrimPrefix(c.Target.Base, "http://"))
	if err != nil {
		f.Mark, f.Verdict, f.Evidence = NotJudged, "not judged", err.Error()
		return f
	}
	defer conn.Close()
	t0 := time.Now()
	closed := make(chan string, 1)
	go func() {
		b := make([]byte, 512)
		n, err := conn.Read(b) // returns when the server answers or closes
		closed <- fmt.Sprintf("%d bytes then %v", n, err)
	}()
	_, _ = fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n", c.Target.Path, c.Target.Host)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	deadline := time.After(c.SlowlorisBound)
	for i := 0; ; i++ {
		select {
		case how := <-closed:
			f.Mark, f.Verdict = Pass, "closed ✓"
			f.Evidence = fmt.Sprintf("one header line a second: the server ended it after %s (%s)", time.Since(t0).Round(100*time.Millisecond), how)
			return f
		case <-deadline:
			f.Mark, f.Verdict = Missing, "held open"
			f.Evidence = fmt.Sprintf("one header line a second: still open after %s, %d lines sent (no header timeout)", c.SlowlorisBound, i)
			return f
		case <-ctx.Done():
			f.Mark, f.Verdict, f.Evidence = NotJudged, "not judged", "interrupted"
			return f
		case <-tick.C:
			_, _ = fmt.Fprintf(conn, "X-Slow-%d: 1\r\n", i)
		}
	}
}
