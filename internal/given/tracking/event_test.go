package tracking

import (
	"errors"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	valid := `{"event_name":"click","data":{"button":"buy"},"timestamp":1632404556}`
	if _, err := Decode([]byte(valid)); err != nil {
		t.Fatalf("valid event rejected: %v", err)
	}
	for _, tc := range []struct {
		body, field string
	}{
		{``, "body"},
		{`{`, "body"},
		{`[]`, "body"},
		{`{"event_name":"click","data":{},"timestamp":1632404556} {}`, "body"},
		{`{"data":{},"timestamp":1632404556}`, "event_name"},
		{`{"event_name":"` + strings.Repeat("a", MaxNameLen+1) + `","data":{},"timestamp":1632404556}`, "event_name"},
		{`{"event_name":"no spaces","data":{},"timestamp":1632404556}`, "event_name"},
		{`{"event_name":7,"data":{},"timestamp":1632404556}`, "event_name"},
		{`{"event_name":"click","timestamp":1632404556}`, "data"},
		{`{"event_name":"click","data":null,"timestamp":1632404556}`, "data"},
		{`{"event_name":"click","data":[1],"timestamp":1632404556}`, "data"},
		{`{"event_name":"click","data":{"x":"` + strings.Repeat("y", MaxDataSize) + `"},"timestamp":1632404556}`, "data"},
		{`{"event_name":"click","data":{}}`, "timestamp"},
		{`{"event_name":"click","data":{},"timestamp":"now"}`, "timestamp"},
		{`{"event_name":"click","data":{},"timestamp":1.5}`, "timestamp"},
		{`{"event_name":"click","data":{},"timestamp":1632404556000}`, "timestamp"},
		{`{"event_name":"click","data":{},"timestamp":12}`, "timestamp"},
		{`{"event_name":"click","data":{},"timestamp":1632404556,"user":1}`, "user"},
	} {
		t.Run(tc.field, func(t *testing.T) { // bad_<field>#NN
			_, err := Decode([]byte(tc.body))
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("%.60s: got %v, want a FieldError on %q", tc.body, err, tc.field)
			}
			if fe.Field != tc.field {
				t.Errorf("%.60s: error names %q (%v), want %q", tc.body, fe.Field, fe, tc.field)
			}
		})
	}
}

// FuzzDecode: whatever the bytes, Decode returns an event or a FieldError —
// never a panic, never another kind of error (which the server would turn
// into a 500).
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"event_name":"click","data":{"button":"buy"},"timestamp":1632404556}`))
	f.Add([]byte(`{"event_name":"","data":[],"timestamp":-1}`))
	f.Add([]byte(`{"data":{"a":{"b":[1,2,{"c":null}]}}}`))
	f.Add([]byte("\xff\xfe{"))
	f.Fuzz(func(t *testing.T, body []byte) {
		e, err := Decode(body)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("non-field error %T: %v", err, err)
			}
			return
		}
		if e.Name == "" || len(e.Data) == 0 || e.Timestamp == 0 {
			t.Fatalf("accepted an incomplete event: %+v", e)
		}
	})
}
