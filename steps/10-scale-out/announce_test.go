package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/replica"
	"github.com/peakload/workshop/internal/given/serverenv"
	"github.com/peakload/workshop/internal/harness/bubble"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// A 200 from POST /items/:id/change promises the client more than a
// committed row: the change has been announced. Redis took the PUBLISH
// before Change returned, so every replica listening then hears it before
// anything announced after the 200, and a client that reads from a replica
// which has heard a later message gets the new item. When Redis refuses
// the PUBLISH that promise cannot be kept, and the client is told (as
// r.Write tells it when its DEL fails after the commit).

// gate is a hook on one replica's Redis client that sees every PUBLISH on
// replica.Channel, and can hold each before it is sent until the test lets
// it go: while one is held, the announcement has not been made.
type gate struct {
	arrived chan string // the payload of each PUBLISH, as it reaches the gate
	open    chan struct{}
	opened  sync.Once
	mu      sync.Mutex
	tried   int // PUBLISHes that reached the gate
	sent    int // PUBLISHes Redis answered
	refused []string
}

func newGate(t *testing.T, rdb *redis.Client, held bool) *gate {
	g := &gate{arrived: make(chan string, 64), open: make(chan struct{})}
	if !held {
		g.let()
	}
	rdb.AddHook(g)
	t.Cleanup(g.let) // before the client closes: a held PUBLISH goes, or fails
	return g
}

func (g *gate) let() { g.opened.Do(func() { close(g.open) }) }

// announcement is the payload of cmd when it publishes on replica.Channel.
func announcement(cmd redis.Cmder) (string, bool) {
	a := cmd.Args()
	if !strings.EqualFold(cmd.Name(), "publish") || len(a) < 3 || fmt.Sprint(a[1]) != replica.Channel {
		return "", false
	}
	return fmt.Sprint(a[2]), true
}

// pass holds cmd until the gate opens, if it announces; it says whether.
func (g *gate) pass(cmd redis.Cmder) bool {
	payload, ok := announcement(cmd)
	if ok {
		g.mu.Lock()
		g.tried++
		g.mu.Unlock()
		select {
		case g.arrived <- payload:
		default:
		}
		<-g.open // not ctx: a verdict on the order of events, not on a deadline
	}
	return ok
}

// came is how many PUBLISHes on replica.Channel reached the gate.
func (g *gate) came() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tried
}

// answered counts what Redis said to an announcement.
func (g *gate) answered(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil {
		g.refused = append(g.refused, err.Error())
	} else {
		g.sent++
	}
}

// counts is what Redis said so far: PUBLISHes answered, and refusals.
func (g *gate) counts() (int, []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sent, append([]string(nil), g.refused...)
}

func (g *gate) DialHook(next redis.DialHook) redis.DialHook { return next }

func (g *gate) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !g.pass(cmd) {
			return next(ctx, cmd)
		}
		err := next(ctx, cmd)
		g.answered(err)
		return err
	}
}

func (g *gate) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		var ours []redis.Cmder
		for _, c := range cmds {
			if g.pass(c) {
				ours = append(ours, c)
			}
		}
		err := next(ctx, cmds)
		for _, c := range ours {
			g.answered(c.Err())
		}
		return err
	}
}

// A change is announced before its answer: Change returns only once Redis
// has answered its PUBLISH. Held at a gate, the PUBLISH waits, and so must
// Change; a Change that returns meanwhile (a publish left to a goroutine)
// has told the client "done" before any replica could hear of it, and
// could not report a failed announcement.
func TestAChangeIsAnsweredOnlyOnceItIsAnnounced(t *testing.T) {
	rdb := patient(t)
	g := newGate(t, rdb, true)
	r := newReplica("r1", stacktest.Store(t), rdb, p.ForHitRatio(p.Clock.RedisTTLS), burstTTL)
	const id = 1601
	var err error
	done := make(chan struct{})
	go func() { defer close(done); err = change(t.Context(), r, id) }()
	returned := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	select {
	case <-done:
	case <-g.arrived:
	case <-time.After(patience):
		bubble.Stalled(t, patience, fmt.Sprintf("Change(%d) publish its announcement, or return", id))
	}
	// The PUBLISH, if it came, is held: Change must wait for it. Until
	// returns false once every goroutine waits with Change still in.
	if returned() || bubble.Until(t, patience, "Change return, or wait for its held PUBLISH", returned) {
		if err != nil {
			t.Fatalf("Change(%d) returned %v before its PUBLISH on %s was sent", id, err, replica.Channel)
		}
		held := "it had not even tried to PUBLISH"
		if g.came() > 0 {
			held = "its PUBLISH was still held by the check, as a slow Redis would hold it"
		}
		t.Fatalf("Change(%d) returned nil (the server answers 200) before its announcement on %s was made: %s. "+
			"The 200 promises the change is announced: publish before Change returns, and return the publish's error; not in a goroutine",
			id, replica.Channel, held)
	}
	g.let()
	select {
	case <-done:
	case <-time.After(patience):
		bubble.Stalled(t, patience, fmt.Sprintf("Change(%d) return once its PUBLISH was sent", id))
	}
	if sent, _ := g.counts(); err != nil || sent == 0 {
		t.Fatalf("Change(%d), its PUBLISH let go: returned %v, with %d announcement(s) answered by Redis", id, err, sent)
	}
}

// When Redis refuses the announcement, the change is committed but not
// announced: the replicas serve the old item up to the burst TTL. The
// client must not read a 200 ("changed, and every replica told"), as it
// does not when r.Write's DEL fails after its commit.
func TestAChangeWhoseAnnouncementFailsIsNotAnsweredOK(t *testing.T) {
	admin := patient(t)
	// A real refusal, from the real Redis: a user that may do all but PUBLISH.
	user := fmt.Sprintf("s10check-nopublish-%d", os.Getpid())
	acl := func(args ...any) {
		if err := admin.Do(context.Background(), append([]any{"ACL"}, args...)...).Err(); err != nil {
			bubble.Stalled(t, patience, fmt.Sprintf("Redis answer the check's own ACL %v (%v)", args[0], err))
		}
	}
	acl("SETUSER", user, "reset", "on", "nopass", "~*", "+@all", "-publish")
	t.Cleanup(func() { acl("DELUSER", user) })
	o := *admin.Options()
	o.Username, o.Password = user, "any" // nopass: any password opens it
	rdb := redis.NewClient(&o)
	t.Cleanup(func() { rdb.Close() })
	g := newGate(t, rdb, false)
	srv := newServer(stacktest.Store(t), rdb, serverenv.Config{Replica: "r1", Invalidation: true, Listen: false})
	const path = "/items/1602/change"
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, nil))
	sent, refused := g.counts()
	switch {
	case rec.Code != http.StatusOK:
	case len(refused) == 0 && sent == 0:
		t.Fatalf("POST %s: Redis refuses this replica's PUBLISH (an ACL), yet the change answered 200 %s before any PUBLISH on %s had been answered: publish before Change returns, and return its error",
			path, strings.TrimSpace(rec.Body.String()), replica.Channel)
	default:
		t.Fatalf("POST %s: Redis refused Change's PUBLISH on %s (%s), yet the change answered 200 %s: the client reads \"changed, every replica told\" while every replica keeps its old copy up to the burst TTL. "+
			"Return the publish's error from Change (wrapped: fmt.Errorf(\"announce item %%d: %%w\", id, err)), as r.Write returns its DEL's",
			path, replica.Channel, strings.Join(refused, "; "), strings.TrimSpace(rec.Body.String()))
	}
}
