package audit

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// answer is one response as the probes read it.
type answer struct {
	status int
	header http.Header
	body   []byte // its first keep bytes
	size   int64  // the whole body's
	closed bool   // the service said Connection: close (Go takes the header out)
}

// keep is how much of a body the probes look at.
const keep = 1 << 20

// send sends one request and reads its whole answer, keeping the first
// MiB: a body cut short would close the connection (keep-alive would read
// as refused) and its size would be the cut's, not the service's.
func (c Config) send(ctx context.Context, client *http.Client, method, path string, body []byte, hdr map[string]string) (answer, error) {
	req, err := c.newRequest(ctx, method, path, body)
	if err != nil {
		return answer{}, err
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return answer{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	n, err := io.Copy(&b, io.LimitReader(resp.Body, keep))
	if err == nil {
		var rest int64
		rest, err = io.Copy(io.Discard, resp.Body)
		n += rest
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: b.Bytes(), size: n, closed: resp.Close}, err
}

// neverSent is a tag no service can have given (hex digits, so the
// evidence reads the same in every language): If-None-Match with it must
// not be answered 304, or every 304 means nothing.
const neverSent = `"9e3779b97f4a7c15"`

// etag is step 3's practice: a GET carries an ETag; the same GET with
// If-None-Match gets 304 and no body; the weak form of the tag (W/ added
// or removed) matches too, since If-None-Match compares weakly (RFC 9110
// §13.1.2).
func etag(ctx context.Context, c Config, client *http.Client) []Finding {
	const step = "3 etag"
	first := Finding{Practice: english("table.audit.p_etag"), Step: step}
	weak := Finding{Practice: english("table.audit.p_weak"), Step: step, Mark: NotJudged, Verdict: english("table.audit.not_judged")}
	a, err := c.send(ctx, client, "GET", c.Target.Path, nil, nil)
	if err != nil {
		first.Mark, first.Verdict, first.Evidence = NotJudged, weak.Verdict, err.Error()
		weak.Evidence = english("table.audit.get_failed")
		return []Finding{first, weak}
	}
	tag := a.header.Get("ETag")
	if tag == "" {
		first.Mark, first.Verdict = Missing, english("table.audit.no_304")
		first.Evidence = english("table.audit.no_etag_header", c.Target.Path, a.status, a.size)
		weak.Evidence = english("table.audit.no_etag")
		return []Finding{first, weak}
	}
	revalidate := func(tag string) (answer, string, bool) {
		b, err := c.send(ctx, client, "GET", c.Target.Path, nil, map[string]string{"If-None-Match": tag})
		if err != nil {
			return b, err.Error(), false
		}
		ok := b.status == http.StatusNotModified && b.size == 0
		return b, english("table.audit.revalidated", tag, b.status, b.size), ok
	}
	_, ev, ok := revalidate(tag)
	first.Evidence = english("table.audit.tagged", a.status, tag, a.size) + "; " + ev
	first.Mark, first.Verdict = Missing, english("table.audit.no_304")
	if ok {
		first.Mark, first.Verdict = Pass, "304 ✓"
	}
	// A tag it never gave must get the body: a service that answers 304
	// to any If-None-Match passes neither check.
	b, ev, _ := revalidate(neverSent)
	first.Evidence += "; " + ev
	if b.status == http.StatusNotModified {
		first.Mark, first.Verdict = Missing, english("table.audit.any_tag")
		weak.Mark, weak.Verdict, weak.Evidence = NotJudged, english("table.audit.not_judged"), english("table.audit.any_tag_weak")
		return []Finding{first, weak}
	}
	other := "W/" + tag
	if rest, isWeak := strings.CutPrefix(tag, "W/"); isWeak {
		other = rest
	}
	_, ev, ok = revalidate(other)
	weak.Evidence, weak.Mark, weak.Verdict = ev, Missing, english("table.audit.weak_missed")
	if ok {
		weak.Mark, weak.Verdict = Pass, english("table.audit.weak_match")
	}
	return []Finding{first, weak}
}
