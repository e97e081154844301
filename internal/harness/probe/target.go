// Package probe is the workshop's bench pointed at a service of your own
// (make probe URL=…): the same closed loop, open-loop capacity search,
// rounds, table and results JSON as `make step-N bench`, with the per-request
// counters read from the service's own Prometheus metrics.
package probe

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
)

// Target is a checked base URL: its host resolved, and every address it
// resolved to loopback unless the user allowed remote targets.
type Target struct {
	Base string // scheme://ip:port, the address the load goes to
	Host string // the Host header the URL named
	Path string // the URL's path and query, "/" when empty
}

// Resolve checks raw and returns where the load will go. Load tools are
// dangerous by default: a typo in a URL can load someone else's
// production. So the host is resolved here, every address must be
// loopback (127.0.0.0/8, ::1) unless allowRemote, and the load is sent to
// the resolved address itself, so a second lookup cannot send it elsewhere.
func Resolve(ctx context.Context, raw string, allowRemote bool) (Target, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "":
		return Target{}, errors.New(messages.T("target.want", raw))
	case u.Scheme == "https":
		return Target{}, errors.New(messages.T("target.tls", raw))
	case u.Scheme != "http":
		return Target{}, errors.New(messages.T("target.scheme", raw, u.Scheme))
	case u.Hostname() == "":
		return Target{}, errors.New(messages.T("target.no_host", raw))
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, u.Hostname())
	if err == nil && len(addrs) == 0 {
		err = errors.New("no address")
	}
	if err != nil {
		return Target{}, errors.New(messages.T("target.resolve", raw, u.Hostname(), err))
	}
	for _, a := range addrs {
		if !a.IP.IsLoopback() && !allowRemote {
			return Target{}, errors.New(messages.T("target.remote", u.Hostname(), a.IP))
		}
	}
	path := u.RequestURI()
	if path == "" {
		path = "/"
	}
	return Target{Base: "http://" + net.JoinHostPort(addrs[0].IP.String(), port), Host: u.Host, Path: path}, nil
}

// Request is one request of a requests file: what a row of the table sends.
type Request struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
}

// Name is the request as a row of the table names it.
func (r Request) Name() string { return r.Method + " " + r.Path }

// headerNote is the request's headers as a row's name shows them, sorted
// and cut to a readable length.
func (r Request) headerNote() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(r.Headers)) {
		parts = append(parts, k+": "+r.Headers[k])
	}
	s := strings.Join(parts, "; ")
	if rs := []rune(s); len(rs) > 60 {
		s = string(rs[:59]) + "…"
	}
	return s
}

// MaxRequests bounds a requests file: each request is a row, measured in
// turn, and a probe must end in a time the user can predict.
const MaxRequests = 20

// ReadRequests reads a requests file: one JSON object a line
// ({"method":"POST","path":"/events","headers":{…},"body":"…"}), blank
// lines and lines starting with # skipped.
func ReadRequests(path string) ([]Request, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Request
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		var r Request
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w (want {\"method\":\"GET\",\"path\":\"/x\"})", path, n, err)
		}
		r.Method = strings.ToUpper(r.Method)
		if r.Method == "" {
			r.Method = "GET"
		}
		if !strings.HasPrefix(r.Path, "/") {
			return nil, errors.New(messages.T("probe.bad_path", path, n, r.Path))
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) == 0 || len(out) > MaxRequests {
		return nil, errors.New(messages.T("probe.bad_count", path, len(out), MaxRequests))
	}
	return out, nil
}
