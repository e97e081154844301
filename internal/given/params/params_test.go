package params

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/course"
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
	want := Keys("", file)
	got := Fields("", reflect.TypeFor[Params]())
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

// A step's own section is read strictly both ways: a key its struct does
// not name, or a field the section lacks, is an error naming both.
func TestStepSectionIsHeldToItsStruct(t *testing.T) {
	p := Params{Steps: map[string]json.RawMessage{"budget": json.RawMessage(`{"rate": 5, "burst": {"size": 2}}`)}}
	type burst struct {
		Size int `json:"size"`
	}
	type ok struct {
		Rate  float64 `json:"rate"`
		Burst burst   `json:"burst"`
	}
	if v, err := Step[ok](p, "budget"); err != nil || v.Rate != 5 || v.Burst.Size != 2 {
		t.Errorf("Step(budget) = %+v, %v; want rate 5, burst 2", v, err)
	}
	type missing struct {
		Rate  float64 `json:"rate"`
		Burst burst   `json:"burst"`
		Cap   int     `json:"cap"`
	}
	if _, err := Step[missing](p, "budget"); err == nil || !strings.Contains(err.Error(), `"cap"`) {
		t.Errorf("a field the section lacks: %v, want an error naming cap", err)
	}
	type short struct {
		Rate float64 `json:"rate"`
	}
	if _, err := Step[short](p, "budget"); err == nil || !strings.Contains(err.Error(), "burst") {
		t.Errorf("a key the struct lacks: %v, want an error naming burst", err)
	}
	if _, err := Step[ok](p, "nope"); err == nil {
		t.Error("Step(nope): no error for a missing section")
	}
	// Notes for people, as every other section of the file carries.
	p.Steps["budget"] = json.RawMessage(`{"about": "ours", "rate": 5, "rate_about": "per client", "burst": {"size": 2, "about": "x"}}`)
	if v, err := Step[ok](p, "budget"); err != nil || v.Rate != 5 || v.Burst.Size != 2 {
		t.Errorf("Step(budget) with about notes = %+v, %v; want rate 5, burst 2, the notes skipped", v, err)
	}
}

// Every section of params.json's "steps" is named for a step of the
// manifest, so a slug typed wrong there fails here, not in a bench.
func TestStepSectionsNameSteps(t *testing.T) {
	slugs := map[string]bool{}
	for _, s := range course.All() {
		slugs[s.Slug] = true
	}
	for name := range Load().Steps {
		if name != "about" && !slugs[name] {
			t.Errorf("k6/lib/params.json: steps.%s names no step of internal/harness/course (a slug, as \"cache-aside\")", name)
		}
	}
}
