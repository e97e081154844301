package params

import (
	"encoding/json"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/peakload/workshop/k6"
)

func TestParamsParse(t *testing.T) {
	p := Load()
	if p.Load.VUs < 1 || p.Catalog.Items < p.Catalog.HotItems || p.Clock.Scale <= 0 || len(p.Event) == 0 {
		t.Fatalf("implausible params: %+v", p)
	}
}

// The articles' clock runs ×scale faster on the bench: 60 s at ×100 is 600 ms.
func TestScaled(t *testing.T) {
	var p Params
	p.Clock.Scale = 100
	if got := p.Scaled(60); got.Milliseconds() != 600 {
		t.Errorf("Scaled(60) at ×100 = %s, want 600ms", got)
	}
}

// k6/lib/params.json is the one source: Go embeds it and Params only
// names its fields. This test keeps the two in step: every key of the file
// (but the "about" notes, for people) is a field of Params, and every field
// of Params is a key of the file, so a parameter added to one side only fails.
func TestStructMirrorsTheJSON(t *testing.T) {
	var file map[string]any
	if err := json.Unmarshal(k6.ParamsJSON, &file); err != nil {
		t.Fatal(err)
	}
	want := keys("", file)
	got := fields("", reflect.TypeFor[Params]())
	for k := range want {
		if !got[k] {
			t.Errorf("k6/lib/params.json has %q, Params has no field for it", k)
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("Params has %q, k6/lib/params.json has no such key", k)
		}
	}
}

// keys lists a JSON object's paths, objects descended into.
func keys(prefix string, m map[string]any) map[string]bool {
	out := map[string]bool{}
	for k, v := range m {
		if k == "about" || strings.HasSuffix(k, "_about") {
			continue
		}
		p := prefix + k
		if sub, ok := v.(map[string]any); ok && p != "event" {
			maps.Copy(out, keys(p+".", sub))
			continue
		}
		out[p] = true
	}
	return out
}

// fields lists a struct's JSON paths, nested structs descended into.
func fields(prefix string, t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			maps.Copy(out, fields(prefix+name+".", f.Type))
			continue
		}
		out[prefix+name] = true
	}
	return out
}
