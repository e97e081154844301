package events_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
	"github.com/peakload/workshop/internal/harness/testseed"
)

// Every rule the edge checks, with where it comes from, and which store
// refuses it. A rule no store has would refuse good events; a store's
// refusal with no rule here is a poison message that gets a 202.
var rules = []struct {
	name        string
	data        bson.D
	ferret, mdb bool // refused by FerretDB 1.x, by MongoDB
	source      string
}{
	{"a dot in a key", bson.D{{Key: "0.95", Value: 1}}, true, false,
		"FerretDB 1.24: `invalid key: \"0.95\" (key must not contain '.' sign)`, code 2 (measured); MongoDB ≥ 5.0 stores dotted field names (manual: Field Names)"},
	{"a key starting with '$'", bson.D{{Key: "$x", Value: 1}}, true, true,
		"FerretDB 1.24: `key must not start with '$' sign`; MongoDB: $-prefixed names are operators and extended JSON ($oid, $date) — the edge reads data as extended JSON"},
	{"an array inside an array", bson.D{{Key: "a", Value: bson.A{bson.A{1}}}}, true, false,
		"FerretDB 1.24: `nested arrays are not supported`, code 2 (measured); MongoDB stores them"},
	{"a key that is not UTF-8", bson.D{{Key: "a\xff", Value: 1}}, true, true,
		"FerretDB 1.24: `not a valid UTF-8 string`; RFC 8259 §8.1: JSON text is UTF-8"},
	{"a NUL byte in a key", bson.D{{Key: "a\x00b", Value: 1}}, true, true,
		"BSON spec: a key is a cstring, NUL-terminated — the driver cannot encode it at all"},
	{"a key twice in one object", bson.D{{Key: "a", Value: 1}, {Key: "a", Value: 2}}, true, true,
		"FerretDB 1.24: `duplicate keys are not allowed`; RFC 8259 §4: names SHOULD be unique (their meaning is left open)"},
	{"deeper than 100 levels", nested(100), true, true,
		"MongoDB manual, Limits: no more than 100 levels of nesting, each object or array adds one (FerretDB 1.24 stored 150: held to MongoDB's limit)"},
	{"99 levels under the event (100 in all)", nested(98), false, false, "the same limit, at its edge"},
	{"a NUL in a string", bson.D{{Key: "a", Value: "x\x00y"}}, true, false,
		"FerretDB 1.24 on PostgreSQL: `unsupported Unicode escape sequence (SQLSTATE 22P05)` for the whole insert (measured: jsonb has no \\u0000); MongoDB stores it"},
	{"an empty key", bson.D{{Key: "", Value: 1}}, false, false, "stored by FerretDB 1.24 (measured) and MongoDB"},
	{"a '$' inside a key", bson.D{{Key: "a$b", Value: 1}}, false, false, "only a leading '$' is refused"},
}

// nested returns data n levels deep: {"x":{"x":…{"x":1}}}.
func nested(n int) bson.D {
	d := bson.D{{Key: "x", Value: 1}}
	for range n - 1 {
		d = bson.D{{Key: "x", Value: d}}
	}
	return d
}

func event(data any) bson.D {
	return bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "event_name", Value: "click"}, {Key: "data", Value: data},
		{Key: "timestamp", Value: int64(1632404556)}}
}

func TestTheEdgeChecksEachRuleOfItsStore(t *testing.T) {
	for _, r := range rules {
		for _, store := range []struct {
			rules   events.Rules
			refuses bool
		}{{events.FerretDB, r.ferret}, {events.MongoDB, r.mdb}} {
			err := store.rules.Check(event(r.data))
			if (err != nil) != store.refuses {
				t.Errorf("%s, %s rules: Check = %v, want refused=%v (%s)", r.name, store.rules.Store, err, store.refuses, r.source)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "data") {
				t.Errorf("%s: %q does not name the field under data", r.name, err)
			}
		}
	}
}

// The property behind the rules, on generated documents against the real
// database: whatever the edge lets through, the store accepts (no 202 for
// a poison message); and what the edge refuses, the store refuses too —
// but for depth, where the edge holds FerretDB to MongoDB's limit.
func TestTheEdgeAgreesWithTheStore(t *testing.T) {
	store := mongotest.Store(t)
	seed := testseed.Or(t, uint64(time.Now().UnixNano()))
	rng := rand.New(rand.NewPCG(seed, 1))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	for i := range 400 {
		doc := event(genDoc(rng, 1))
		edge := store.Rules.Check(doc)
		_, err := store.Events.InsertOne(ctx, doc)
		switch {
		case edge == nil && err != nil:
			t.Fatalf("case %d (replay: PEAKLOAD_SEED=%d): the edge accepts %v, %s refuses it: %v", i, seed, doc, store.Rules.Store, err)
		case edge != nil && err == nil && !strings.Contains(edge.Error(), "levels"):
			if strings.Contains(edge.Error(), "twice") && store.Rules.Store == events.MongoDB.Store {
				continue // MongoDB may store a repeated key; the edge refuses JSON whose meaning is open
			}
			t.Fatalf("case %d (replay: PEAKLOAD_SEED=%d): the edge refuses %v (%v), %s stores it: a rule no store has",
				i, seed, doc, edge, store.Rules.Store)
		}
	}
}

// genDoc makes an object of a few keys, drawn to hit the rules often:
// dots, dollars, bad UTF-8, NUL, repeats, arrays in arrays, depth.
func genDoc(rng *rand.Rand, depth int) bson.D {
	keys := []string{"a", "b", "0.95", "$x", "a$b", "", "k\xff", "n\x00l", "ü", "a.b.c", "x y"}
	var d bson.D
	for range rng.IntN(4) {
		k := keys[rng.IntN(len(keys))]
		if rng.IntN(3) > 0 {
			k = keys[rng.IntN(2)] + fmt.Sprint(rng.IntN(3)) // mostly plain keys, so the documents get deep
		}
		d = append(d, bson.E{Key: k, Value: genValue(rng, depth+1)})
	}
	return d
}

func genValue(rng *rand.Rand, depth int) any {
	if depth > 120 {
		return 1
	}
	switch n := rng.IntN(10); {
	case n < 3:
		return rng.IntN(100)
	case n < 4:
		return []string{"s", "\x00", "a\xffb"}[rng.IntN(3)]
	case n < 7 || depth > 90 && n < 9:
		return genDoc(rng, depth)
	case n < 8 && depth > 60:
		return bson.D{{Key: "x", Value: genValue(rng, depth+1)}} // a long chain, toward the depth limit
	default:
		a := bson.A{}
		for range rng.IntN(3) {
			a = append(a, genValue(rng, depth+1))
		}
		return a
	}
}

// Behind the edge, the store itself tells a refusal for good from a
// failure that can pass, document by document, whichever way the database
// reports it (a per-document error, or — FerretDB on PostgreSQL — a whole
// command failed on one document's data): the refused ones are named, the
// others written, and a document already stored (a retry) counts as written.
func TestTheStoreNamesEachRefusal(t *testing.T) {
	store := mongotest.Store(t)
	if store.Rules.Store != events.FerretDB.Store {
		t.Skip("the refusals below are FerretDB's; MongoDB stores them")
	}
	ctx := t.Context()
	again := event(bson.D{{Key: "a", Value: 1}})
	if _, err := store.Events.InsertOne(ctx, again); err != nil {
		t.Fatal(err)
	}
	docs := []bson.D{event(bson.D{{Key: "a", Value: 1}}), event(bson.D{{Key: "0.95", Value: 1}}), again,
		event(bson.D{{Key: "s", Value: "x\x00y"}}), event(bson.D{{Key: "b", Value: 2}})}
	retry, err := store.InsertMany(ctx, docs)
	var refused events.Refused
	if !errors.As(err, &refused) || len(refused) != 2 || len(retry) != 2 {
		t.Fatalf("a batch with a dotted key and a NUL in a string: retry %d, refused %v (%v); want both named, nothing else to retry", len(retry), refused, err)
	}
	reasons := []string{refused[0].Reason, refused[1].Reason}
	slices.Sort(reasons)
	if n, _ := store.Count(ctx); n != 3 || !slices.Equal(reasons, []string{"data_exception", "invalid_key"}) {
		t.Fatalf("stored %d (want 3: two good and the retried one), reasons %v (want data_exception, invalid_key)", n, reasons)
	}
}
