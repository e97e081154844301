// Package tracking is the tracking event of article B as the API receives
// it: its JSON grammar, decoded and validated strictly at the edge, before
// anything is stored. It imports no database driver, so a server that only
// checks an event's body (step 0's empty POST, in every step server) links
// no MongoDB; internal/given/events stores what this package accepts.
package tracking

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Limits on what an event may hold. The body limit of the server (64 KiB)
// is checked before decoding; these name the field that is wrong.
const (
	MaxNameLen  = 64
	MaxDataSize = 16 << 10
)

// Event is one tracking event, e.g.
// {"event_name":"click","data":{"button":"buy"},"timestamp":1632404556}.
type Event struct {
	Name      string          `json:"event_name" bson:"event_name"`
	Data      json.RawMessage `json:"data" bson:"-"`
	Timestamp int64           `json:"timestamp" bson:"timestamp"`
}

// FieldError says which field of the payload is invalid and why.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

// earliest is the lowest timestamp accepted: anything older is a unit bug
// (milliseconds sent as seconds go the other way and are caught by latest).
var earliest = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Unix()

// Decode reads exactly one JSON object and validates it. Unknown fields,
// trailing data and wrong types are errors, as are a missing or oversized
// event_name, a data value that is not an object or is too big, and a
// timestamp outside 2000-01-01 … now+24h.
func Decode(body []byte) (Event, error) {
	var e Event
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return Event{}, describe(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Event{}, &FieldError{Field: "body", Reason: "must hold exactly one JSON object"}
	}
	return e, e.Validate(time.Now())
}

// Validate checks the decoded fields.
func (e Event) Validate(now time.Time) error {
	switch {
	case e.Name == "":
		return &FieldError{"event_name", "is required"}
	case len(e.Name) > MaxNameLen:
		return &FieldError{"event_name", fmt.Sprintf("is longer than %d bytes", MaxNameLen)}
	}
	for _, r := range e.Name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return &FieldError{"event_name", "may hold only letters, digits, '_', '-' and '.'"}
		}
	}
	data := bytes.TrimSpace(e.Data)
	switch {
	case len(data) == 0 || bytes.Equal(data, []byte("null")):
		return &FieldError{"data", "is required (a JSON object)"}
	case data[0] != '{':
		return &FieldError{"data", "must be a JSON object"}
	case len(data) > MaxDataSize:
		return &FieldError{"data", fmt.Sprintf("is larger than %d bytes", MaxDataSize)}
	}
	switch {
	case e.Timestamp == 0:
		return &FieldError{"timestamp", "is required (unix seconds)"}
	case e.Timestamp < earliest || e.Timestamp > now.Add(24*time.Hour).Unix():
		return &FieldError{"timestamp", "must be unix seconds between 2000-01-01 and now+24h"}
	}
	return nil
}

// describe turns encoding/json's errors into a FieldError naming the field.
func describe(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return &FieldError{"body", "is empty; want a JSON object"}
	case errors.As(err, &syn):
		return &FieldError{"body", fmt.Sprintf("malformed JSON at byte %d: %v", syn.Offset, syn)}
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return &FieldError{field, "must be " + jsonKind(typ.Type.Kind().String())}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &FieldError{"body", "truncated JSON"}
	}
	if name, ok := bytes.CutPrefix([]byte(err.Error()), []byte("json: unknown field ")); ok {
		return &FieldError{Field: string(bytes.Trim(name, `"`)), Reason: "is not a known field (want event_name, data, timestamp)"}
	}
	return &FieldError{"body", err.Error()}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int64", "int", "int32", "float64":
		return "an integer"
	case "struct":
		return "a JSON object"
	}
	return "of another type"
}
