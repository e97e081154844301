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
	first := Finding{Practice: "ETag / 304 on a repeated GET", Step: step}
	weak := Finding{Practice: "ETag: the weak form of the tag matches", Step: step, Mark: NotJudged, Verdict: "not judged"}
	a, err := c.send(ctx, client, "GET", c.Target.Path, nil, nil)
	if err != nil {
		first.Mark, first.Verdict, first.Evidence = NotJudged, "not judged", err.Error()
		weak.Evidence = "the GET failed"
		return []Finding{first, weak}
	}
	tag := a.header.Get("ETag")
	if tag == "" {
		first.Mark, first.Verdict = Missing, "no 304"
		first.Evidence = fmt.Sprintf("GET %s → %d, %d bytes, no ETag header: every poll downloads the whole body", c.Target.Path, a.status, len(a.body))
		weak.Evidence = "no ETag to compare"
		return []Finding{first, weak}
	}
	revalidate := func(tag string) (answer, string, bool) {
		b, err := c.send(ctx, client, "GET", c.Target.Path, nil, map[string]string{"If-None-Match": tag})
		if err != nil {
			return b, err.Error(), false
		}
		ok := b.status == http.StatusNotModified && len(b.body) == 0
		return b, fmt.Sprintf("If-None-Match: %s → %d, %d body bytes", tag, b.status, len(b.body)), ok
	}
	_, ev, ok := revalidate(tag)
	first.Evidence = fmt.Sprintf("GET → %d, ETag %s, %d bytes; %s", a.status, tag, len(a.body), ev)
	first.Mark, first.Verdict = Missing, "no 304"
	if ok {
		first.Mark, first.Verdict = Pass, "304 ✓"
	}
	other := "W/" + tag
	if rest, isWeak := strings.CutPrefix(tag, "W/"); isWeak {
		other = rest
	}
	_, ev, ok = revalidate(other)
	weak.Evidence, weak.Mark, weak.Verdict = ev, Missing, "weak tag not matched"
	if ok {
		weak.Mark, weak.Verdict = Pass, "weak match ✓"
	}
	return []Finding{first, weak}
}
