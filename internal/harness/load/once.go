package load

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// Once sends v's request to o.Target one time, with the loops' client and
// o's timeout and retry rules, and returns its error as a user would count
// it (v.Check, else a status >= 400): make probe tries a service this way
// before it loads it. Ctrl-C cuts the wait.
func Once(ctx context.Context, o Options, v Variant) error {
	addr, err := hostPort(o.Target)
	if err != nil {
		return err
	}
	var wire atomic.Int64
	cs := newConns(&wire, o.dial)
	client := newClient(addr, 1, o, 30*time.Second, cs)
	defer client.CloseIdleConnections()
	reqs, resp := newRequests(o, v), fasthttp.AcquireResponse()
	defer reqs.release()
	defer fasthttp.ReleaseResponse(resp)
	vu := newUser(0, o).vu
	done := make(chan error, 1)
	go func() {
		err := client.Do(reqs.next(&vu), resp)
		if err == nil {
			err = check(v, &vu, resp)
		}
		done <- err
	}()
	select {
	case err = <-done:
		return err
	case <-ctx.Done():
		cs.closeAll()
		<-done
		return ctx.Err()
	}
}
