package events

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/peakload/workshop/internal/given/tracking"
)

// Rules are what the database in use refuses in a document, checked at the
// edge (article D's strict validation at the gateway, "lọc dữ liệu rác ngay
// từ tầng gateway": filter junk data right at the gateway): an event the
// database would refuse for good gets 400 naming the field, before it is
// acknowledged, instead of a 202 and a poison message in the buffer.
// rules_test.go lists each rule with its source.
type Rules struct {
	Store        string // which database the rules are for
	DotsInKeys   bool   // MongoDB ≥ 5.0 stores "a.b" as a key; FerretDB 1.x refuses it
	NestedArrays bool   // FerretDB 1.x refuses an array directly inside an array
	MaxDepth     int    // levels of nesting, the document itself being the first
	NULInStrings bool   // MongoDB stores "\u0000" in a string; FerretDB on PostgreSQL cannot (jsonb)
}

// MongoDB's rules: its documented limit of 100 levels of nesting (each
// object or array adds one), dotted keys allowed since 5.0.
var MongoDB = Rules{Store: "MongoDB", DotsInKeys: true, NestedArrays: true, MaxDepth: 100, NULInStrings: true}

// FerretDB's (1.x, measured against it): no dots in keys, no array inside
// an array, no NUL character in a string (on PostgreSQL, documents are
// jsonb: "unsupported Unicode escape sequence", SQLSTATE 22P05, for the
// whole insert). It accepted 150 levels; the workshop holds it to MongoDB's 100,
// so an event accepted here is one a real MongoDB accepts too.
var FerretDB = Rules{Store: "FerretDB 1.x", DotsInKeys: false, NestedArrays: false, MaxDepth: 100}

// rulesOf asks the server which it is: FerretDB's buildInfo has a
// ferretdbVersion field. When it cannot tell, the stricter rules apply.
func rulesOf(ctx context.Context, client *mongo.Client) Rules {
	var info bson.M
	if err := client.Database("admin").RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err != nil {
		return FerretDB
	}
	if _, ferret := info["ferretdbVersion"]; ferret {
		return FerretDB
	}
	return MongoDB
}

// Check walks the document and returns a tracking.FieldError naming the first field
// the database would refuse. Whatever the store, keys must be valid UTF-8
// without a NUL byte (BSON keys are C strings: the driver cannot send one),
// must not start with '$' (operators, and extended JSON's $oid, $date…),
// and must not repeat within one object (JSON leaves their meaning open;
// FerretDB refuses them).
func (r Rules) Check(doc bson.D) error {
	return r.check(doc, "", 1)
}

func (r Rules) check(v any, path string, depth int) error {
	switch v := v.(type) {
	case bson.D:
		if depth > r.MaxDepth {
			return &tracking.FieldError{Field: path, Reason: fmt.Sprintf("nests deeper than %d levels (%s's limit)", r.MaxDepth, r.Store)}
		}
		seen := make(map[string]bool, len(v))
		for _, e := range v {
			name := join(path, e.Key)
			if err := r.key(e.Key, name); err != nil {
				return err
			}
			if seen[e.Key] {
				return &tracking.FieldError{Field: name, Reason: "appears twice in one object"}
			}
			seen[e.Key] = true
			if err := r.check(e.Value, name, depth+1); err != nil {
				return err
			}
		}
	case string:
		if !r.NULInStrings && strings.ContainsRune(v, 0) {
			return &tracking.FieldError{Field: path, Reason: "holds a NUL character (\\u0000), which " + r.Store + " does not store"}
		}
	case bson.A:
		if depth > r.MaxDepth {
			return &tracking.FieldError{Field: path, Reason: fmt.Sprintf("nests deeper than %d levels (%s's limit)", r.MaxDepth, r.Store)}
		}
		for i, x := range v {
			name := fmt.Sprintf("%s[%d]", path, i)
			if _, inner := x.(bson.A); inner && !r.NestedArrays {
				return &tracking.FieldError{Field: name, Reason: "is an array inside an array, which " + r.Store + " does not store"}
			}
			if err := r.check(x, name, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r Rules) key(k, name string) error {
	switch {
	case !utf8.ValidString(k):
		return &tracking.FieldError{Field: name, Reason: "key is not valid UTF-8"}
	case strings.ContainsRune(k, 0):
		return &tracking.FieldError{Field: name, Reason: "key holds a NUL byte"}
	case strings.HasPrefix(k, "$"):
		return &tracking.FieldError{Field: name, Reason: "key must not start with '$'"}
	case !r.DotsInKeys && strings.Contains(k, "."):
		return &tracking.FieldError{Field: name, Reason: "key must not contain '.' (" + r.Store + " refuses it)"}
	}
	return nil
}

// join names a nested field data.a.b; a key that would read ambiguously
// there (a dot, a space, nothing) is quoted: data["0.95"].
func join(path, key string) string {
	if key == "" || strings.ContainsAny(key, ". \"[]") || strconv.Quote(key) != `"`+key+`"` {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
