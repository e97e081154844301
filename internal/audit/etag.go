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
	body   []byte
}

// send sends one request and reads its whole answer (at most 1 MiB).
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
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return answer{resp.StatusCode, resp.Header, b}, err
}

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
		first.Evidence = english("table.audit.no_etag_header", c.Target.Path, a.status, len(a.body))
		weak.Evidence = english("table.audit.no_etag")
		return []Finding{first, weak}
	}
	revalidate := func(tag string) (answer, string, bool) {
		b, err := c.send(ctx, client, "GET", c.Target.Path, nil, map[string]string{"If-None-Match": tag})
		if err != nil {
			return b, err.Error(), false
		}
		ok := b.status == http.StatusNotModified && len(b.body) == 0
		return b, english("table.audit.revalidated", tag, b.status, len(b.body)), ok
	}
	_, ev, ok := revalidate(tag)
	first.Evidence = english("table.audit.tagged", a.status, tag, len(a.body)) + "; " + ev
	first.Mark, first.Verdict = Missing, english("table.audit.no_304")
	if ok {
		first.Mark, first.Verdict = Pass, "304 ✓"
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
