package audit

import (
	"cmp"
	"context"
	"net/http"
	"strings"
)

// headers reports, without judging, compression and the caching headers:
// whether they fit depends on the payload and on who caches it.
func headers(ctx context.Context, c Config, client *http.Client) []Finding {
	comp := Finding{Practice: english("table.audit.p_compression"), Mark: Info, Step: english("table.audit.s_compression")}
	caching := Finding{Practice: english("table.audit.p_caching"), Mark: Info, Step: "3 etag; docs/scaling.md (CDN)"}
	plain, err1 := c.send(ctx, client, "GET", c.Target.Path, nil, nil)
	gz, err2 := c.send(ctx, client, "GET", c.Target.Path, nil, map[string]string{"Accept-Encoding": "gzip, br"})
	if err := cmp.Or(err1, err2); err != nil { // the first error, once
		comp.Verdict, comp.Evidence = english("table.audit.not_read"), err.Error()
		caching.Verdict, caching.Evidence = comp.Verdict, comp.Evidence
		return []Finding{comp, caching}
	}
	enc := gz.header.Get("Content-Encoding")
	comp.Verdict = english("table.capacity.none")
	if enc != "" {
		comp.Verdict = enc
	}
	comp.Evidence = english("table.audit.encoding", enc, gz.size, plain.size)
	var seen []string
	for _, h := range []string{"Cache-Control", "ETag", "Last-Modified", "Expires", "Vary", "Age"} {
		if v := plain.header.Get(h); v != "" {
			seen = append(seen, h+": "+v)
		}
	}
	caching.Verdict = english("table.audit.headers_seen", len(seen))
	caching.Evidence = english("table.audit.no_caching")
	if len(seen) > 0 {
		caching.Evidence = strings.Join(seen, "; ")
	}
	return []Finding{comp, caching}
}
