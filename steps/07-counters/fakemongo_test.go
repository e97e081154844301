package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/address"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/description"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/drivertest"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/mnet"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"

	"github.com/peakload/workshop/internal/given/events"
)

// fakeMongo is the stand-in database of the service-free phase: the real
// driver and the real events.Counters.IncMany, talking to a map in memory
// instead of a server. It answers update and find the way MongoDB does (an
// unordered update goes on past a failing element and reports each error
// at its own index), records every command it receives — the round trips —
// and fails on demand: the whole command, some ids only, or the
// acknowledgement after the write got in.
type fakeMongo struct {
	*drivertest.MockDeployment // the plumbing a driver.Deployment needs

	mu       sync.Mutex
	counters map[string]*fakeCounter
	updates  [][]events.Inc // one per update command received: the round trips
	finds    int
	// Faults of every update command until the next arm.
	down    bool            // the command fails whole, nothing applied
	failIDs map[string]bool // these ids fail (a write conflict), the rest apply
	loseAck bool            // the command applies, its reply is lost
}

type fakeCounter struct {
	value    int64
	poisoned bool // its value is a string: $inc is refused for good
	applied  map[string]int64
}

// newFakeCounters returns counters stored in a fresh fakeMongo, and the fake.
func newFakeCounters() (*events.Counters, *fakeMongo) {
	f := &fakeMongo{MockDeployment: drivertest.NewMockDeployment(), counters: map[string]*fakeCounter{}}
	opts := options.Client().SetRetryWrites(false).SetRetryReads(false)
	opts.Deployment = f // the driver's own test hook (marked internal): no server, no network
	client, err := mongo.Connect(opts)
	if err != nil {
		panic(err) // no network: it cannot fail
	}
	return &events.Counters{Coll: client.Database("workshop").Collection("counters")}, f
}

func (f *fakeMongo) SelectServer(context.Context, description.ServerSelector) (driver.Server, error) {
	return f, nil
}

func (f *fakeMongo) Connection(context.Context) (*mnet.Connection, error) {
	return mnet.NewConnection(&fakeConn{f: f}), nil
}

// value returns a counter's value (0 when absent).
func (f *fakeMongo) value(id string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c := f.counters[id]; c != nil {
		return c.value
	}
	return 0
}

// values returns every counter's value.
func (f *fakeMongo) values() map[string]int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := map[string]int64{}
	for id, c := range f.counters {
		m[id] = c.value
	}
	return m
}

// poison makes id's value a string, as someone else wrote it.
func (f *fakeMongo) poison(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.counters[id] = &fakeCounter{poisoned: true}
}

// arm sets the faults of the update commands to come; arm(false, false,
// nil) clears them.
func (f *fakeMongo) arm(down, loseAck bool, failIDs map[string]bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down, f.loseAck, f.failIDs = down, loseAck, failIDs
}

// roundTrips returns the update commands received since mark (the length
// of updates at some earlier time).
func (f *fakeMongo) roundTrips(mark int) [][]events.Inc {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.updates[min(mark, len(f.updates)):])
}

func (f *fakeMongo) mark() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.updates)
}

// fakeConn is one checked-out connection: Write runs the command, Read
// returns its reply.
type fakeConn struct {
	f     *fakeMongo
	reply []byte
	err   error
}

func (c *fakeConn) Write(_ context.Context, wm []byte) error {
	reply, lost := c.f.command(wm)
	if lost {
		c.reply, c.err = nil, errors.New("fake: connection reset by peer after the write")
		return nil
	}
	c.reply, c.err = reply, nil
	return nil
}

func (c *fakeConn) Read(context.Context) ([]byte, error) {
	if c.err != nil {
		return nil, c.err
	}
	if c.reply == nil {
		return nil, errors.New("fake: no reply to read")
	}
	r := c.reply
	c.reply = nil
	return r, nil
}

func (c *fakeConn) Close() error                    { return nil }
func (c *fakeConn) Description() description.Server { return drivertest.MockDescription }
func (c *fakeConn) ID() string                      { return "fake" }
func (c *fakeConn) ServerConnectionID() *int64      { n := int64(1); return &n }
func (c *fakeConn) DriverConnectionID() int64       { return 1 }
func (c *fakeConn) Address() address.Address        { return drivertest.MockDescription.Addr }
func (c *fakeConn) Stale() bool                     { return false }
func (c *fakeConn) OIDCTokenGenID() uint64          { return 0 }
func (c *fakeConn) SetOIDCTokenGenID(uint64)        {}

// command parses an OP_MSG, runs it and returns the reply; lost means the
// reply must not reach the driver.
func (f *fakeMongo) command(wm []byte) (reply []byte, lost bool) {
	_, reqID, _, _, rem, _ := wiremessage.ReadHeader(wm)
	_, rem, _ = wiremessage.ReadMsgFlags(rem)
	var body bsoncore.Document
	seqs := map[string][]bsoncore.Document{}
	for len(rem) > 0 {
		st, r, ok := wiremessage.ReadMsgSectionType(rem)
		if !ok {
			break
		}
		switch st {
		case wiremessage.SingleDocument:
			body, rem, _ = wiremessage.ReadMsgSectionSingleDocument(r)
		case wiremessage.DocumentSequence:
			var id string
			var docs []bsoncore.Document
			id, docs, rem, _ = wiremessage.ReadMsgSectionDocumentSequence(r)
			seqs[id] = docs
		default:
			rem = nil
		}
	}
	var res bson.D
	switch name := commandName(body); name {
	case "update":
		res, lost = f.update(body, seqs["updates"])
	case "find":
		res = f.find(body)
	default:
		res = bson.D{{Key: "ok", Value: 1}}
	}
	var dst []byte
	var at int32
	at, dst = wiremessage.AppendHeaderStart(dst, wiremessage.NextRequestID(), reqID, wiremessage.OpMsg)
	dst = wiremessage.AppendMsgFlags(dst, 0)
	dst = wiremessage.AppendMsgSectionType(dst, wiremessage.SingleDocument)
	b, _ := bson.Marshal(res)
	dst = append(dst, b...)
	return bsoncore.UpdateLength(dst, at, int32(len(dst[at:]))), lost
}

func commandName(body bsoncore.Document) string {
	elems, err := body.Elements()
	if err != nil || len(elems) == 0 {
		return ""
	}
	return elems[0].Key()
}

type fakeUpdate struct {
	Q      bson.M `bson:"q"`
	U      bson.M `bson:"u"`
	Upsert bool   `bson:"upsert"`
}

func (f *fakeMongo) update(body bsoncore.Document, seq []bsoncore.Document) (bson.D, bool) {
	var ups []fakeUpdate
	for _, d := range seq {
		var u fakeUpdate
		_ = bson.Unmarshal(d, &u)
		ups = append(ups, u)
	}
	if len(seq) == 0 { // the updates in the body itself
		var b struct {
			Updates []fakeUpdate `bson:"updates"`
		}
		_ = bson.Unmarshal(body, &b)
		ups = b.Updates
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	down, loseAck, failIDs := f.down, f.loseAck, f.failIDs
	var incs []events.Inc
	for _, u := range ups {
		id, _ := u.Q["_id"].(string)
		incs = append(incs, events.Inc{ID: id, N: incOf(u.U)})
	}
	f.updates = append(f.updates, incs)
	if down {
		return bson.D{{Key: "ok", Value: 0}, {Key: "code", Value: 6}, {Key: "codeName", Value: "HostUnreachable"},
			{Key: "errmsg", Value: "fake: the database is unreachable"}}, false
	}
	var n, modified int
	var upserted, writeErrors bson.A
	for i, u := range ups {
		id := incs[i].ID
		werr := func(code int, msg string) {
			writeErrors = append(writeErrors, bson.D{{Key: "index", Value: i}, {Key: "code", Value: code}, {Key: "errmsg", Value: msg}})
		}
		if failIDs[id] {
			werr(112, fmt.Sprintf("fake: write conflict on {_id: %q}, try again", id))
			continue
		}
		c := f.counters[id]
		if c != nil && c.poisoned {
			werr(14, fmt.Sprintf("Cannot apply $inc to a value of non-numeric type. {_id: %q} has the field 'value' of non-numeric type string", id))
			continue
		}
		writer, seq, guarded := guardOf(u.Q)
		if c != nil && guarded && c.applied[writer] >= seq {
			if u.Upsert { // matches nothing; the upsert collides with the _id
				werr(11000, fmt.Sprintf("E11000 duplicate key error collection: workshop.counters index: _id_ dup key: { _id: %q }", id))
			}
			continue
		}
		if c == nil {
			if !u.Upsert {
				continue
			}
			c = &fakeCounter{applied: map[string]int64{}}
			f.counters[id] = c
			upserted = append(upserted, bson.D{{Key: "index", Value: i}, {Key: "_id", Value: id}})
		} else {
			modified++
		}
		n++
		c.value += incs[i].N
		if w, s, ok := maxOf(u.U); ok {
			c.applied[w] = max(c.applied[w], s)
		}
	}
	res := bson.D{{Key: "n", Value: n}, {Key: "nModified", Value: modified}}
	if len(upserted) > 0 {
		res = append(res, bson.E{Key: "upserted", Value: upserted})
	}
	if len(writeErrors) > 0 {
		res = append(res, bson.E{Key: "writeErrors", Value: writeErrors})
	}
	return append(res, bson.E{Key: "ok", Value: 1}), loseAck
}

// incOf reads {$inc: {value: n}}.
func incOf(u bson.M) int64 {
	return toInt64(get(u["$inc"], "value"))
}

// guardOf reads IncMany's batch guard {"applied.<w>": {$not: {$gte: seq}}}.
func guardOf(q bson.M) (writer string, seq int64, ok bool) {
	for k, v := range q {
		if w, found := strings.CutPrefix(k, "applied."); found {
			return w, toInt64(get(get(v, "$not"), "$gte")), true
		}
	}
	return "", 0, false
}

// maxOf reads {$max: {"applied.<w>": seq}}.
func maxOf(u bson.M) (writer string, seq int64, ok bool) {
	if m, ok := u["$max"].(bson.D); ok {
		for _, e := range m {
			if w, found := strings.CutPrefix(e.Key, "applied."); found {
				return w, toInt64(e.Value), true
			}
		}
	}
	return "", 0, false
}

// get returns a field of a document decoded as bson.D (nested) or bson.M.
func get(doc any, key string) any {
	switch d := doc.(type) {
	case bson.M:
		return d[key]
	case bson.D:
		for _, e := range d {
			if e.Key == key {
				return e.Value
			}
		}
	}
	return nil
}

func toInt64(v any) int64 {
	switch n := v.(type) {
	case int32:
		return int64(n)
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return 0
}

// find answers IncMany's lookup of the counters that already hold a batch:
// {_id: {$in: ids}, "applied.<w>": {$gte: seq}}.
func (f *fakeMongo) find(body bsoncore.Document) bson.D {
	var b struct {
		Filter bson.M `bson:"filter"`
	}
	_ = bson.Unmarshal(body, &b)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.finds++
	in, _ := get(b.Filter["_id"], "$in").(bson.A)
	var docs bson.A
	for _, v := range in {
		id, _ := v.(string)
		c := f.counters[id]
		if c == nil {
			continue
		}
		ok := true
		for k, cond := range b.Filter {
			if w, found := strings.CutPrefix(k, "applied."); found {
				gte := toInt64(get(cond, "$gte"))
				ok = ok && c.applied[w] >= gte
			}
		}
		if ok {
			docs = append(docs, bson.D{{Key: "_id", Value: id}})
		}
	}
	if docs == nil {
		docs = bson.A{}
	}
	return bson.D{{Key: "cursor", Value: bson.D{{Key: "firstBatch", Value: docs}, {Key: "id", Value: int64(0)},
		{Key: "ns", Value: "workshop.counters"}}}, {Key: "ok", Value: 1}}
}
