package load

import (
	"strings"

	"github.com/valyala/fasthttp"
)

// requests writes a variant's requests for one user of either loop: a
// fixed request is written once and sent again and again; with Prepare,
// each request is written anew (a hot-skewed id, an If-None-Match…).
type requests struct {
	req    *fasthttp.Request
	v      Variant
	method string
	host   string
}

func newRequests(o Options, v Variant) *requests {
	r := &requests{req: fasthttp.AcquireRequest(), v: v, method: v.Method, host: strings.TrimPrefix(o.Target, "http://")}
	if r.method == "" {
		r.method = fasthttp.MethodGet
	}
	if v.Prepare == nil {
		r.req.Header.SetMethod(r.method)
		r.req.SetRequestURI(o.Target + v.Path)
		if v.Body != nil {
			r.req.Header.SetContentType("application/json")
			r.req.SetBody(v.Body)
		}
		if v.Host != "" { // make probe: the Host the user's URL named, sent to the address it resolved to
			r.req.UseHostHeader = true
			r.req.Header.SetHost(v.Host)
		}
	}
	return r
}

// next returns the request vu sends now.
func (r *requests) next(vu *VU) *fasthttp.Request {
	if r.v.Prepare != nil {
		r.req.Reset()
		r.req.Header.SetMethod(r.method)
		r.v.Prepare(vu, r.req)
		r.req.SetHost(r.host)
	}
	return r.req
}

func (r *requests) release() { fasthttp.ReleaseRequest(r.req) }
