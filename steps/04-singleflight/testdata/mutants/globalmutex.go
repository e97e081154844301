// globalmutex: one mutex held around every load: callers of one key wait for its load and reuse it, but every other item queues behind it, and a waiter cannot give up
// vi: một mutex giữ quanh mọi lượt load: caller của một key chờ và dùng lại lượt load của key đó, nhưng mọi item khác xếp hàng sau nó, và caller đang chờ không bỏ cuộc được

//go:build !solution

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

type result struct {
	value []byte
	err   error
	at    time.Time
}

// Group coalesces concurrent loads of the same key.
type Group struct {
	mu   sync.Mutex
	last map[string]result
}

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	asked := time.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	if r, ok := g.last[key]; ok && r.at.After(asked) {
		return r.value, r.err // loaded while this caller waited: share it
	}
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	v, err := safely(lctx, load)
	if g.last == nil {
		g.last = map[string]result{}
	}
	g.last[key] = result{v, err, time.Now()}
	return v, err
}

func safely(ctx context.Context, load func(context.Context) ([]byte, error)) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(ctx)
}
