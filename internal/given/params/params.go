// Package params holds the workshop's shared parameters: the load (VUs,
// durations), the catalogue and its skew, the scaled clock, the event body,
// steps 8–10's settings. The file itself is k6/lib/params.json, where the
// k6 scripts open it; the Go driver, the scenarios and the step servers read
// the same file through Load, so both tools run the same scenario. A new
// step's parameters go under "steps" in the file alone (Step reads them).
package params

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/peakload/workshop/k6"
)

// Params mirrors lib/params.json.
type Params struct {
	Load struct {
		VUs            int     `json:"vus"`
		DurationS      float64 `json:"duration_s"`
		WarmupS        float64 `json:"warmup_s"`
		QuickDurationS float64 `json:"quick_duration_s"`
		QuickWarmupS   float64 `json:"quick_warmup_s"`
	} `json:"load"`
	Catalog struct {
		Items     int     `json:"items"`
		HotItems  int     `json:"hot_items"`
		HotShare  float64 `json:"hot_share"`
		HotStride int     `json:"hot_stride"`
		ZipfS     float64 `json:"zipf_s"`
	} `json:"catalog"`
	Clock struct {
		Scale     float64 `json:"scale"`
		PollS     float64 `json:"poll_s"`
		ChangeS   float64 `json:"change_s"`
		RedisTTLS float64 `json:"redis_ttl_s"`
		// BurstTTLS is ours (3 s): article A's example keeps 5 s.
		BurstTTLS float64 `json:"burst_ttl_s"`
		// HitRatioScale is the clock of the TTLs whose claims are hit
		// ratios under a saturating load (steps 2 and 5): see ForHitRatio.
		HitRatioScale float64 `json:"hit_ratio_scale"`
	} `json:"clock"`
	Event json.RawMessage `json:"event"`
	Login struct {
		VUs         int `json:"vus"`
		Users       int `json:"users"`
		Iterations  int `json:"pbkdf2_iterations"`
		MaxFailures int `json:"max_failures"`
	} `json:"login"`
	Frameworks struct {
		VUs       int   `json:"vus"`
		Pool      int   `json:"pool"`
		PoolSizes []int `json:"pool_sizes"`
	} `json:"frameworks"`
	// ScaleOut is step 10's: how many replicas the rows run, and the
	// bound within which a change must reach every listening replica.
	ScaleOut struct {
		Replicas            []int   `json:"replicas"`
		InvalidationBoundMS float64 `json:"invalidation_bound_ms"`
		Changes             int     `json:"changes"`
		QuickChanges        int     `json:"quick_changes"`
	} `json:"scale_out"`
	// Steps holds each later step's own parameters, under its slug: a
	// step adding one writes it in params.json alone and reads its
	// section with Step, so this struct (shared by every step) needs no
	// edit. The sections above predate it.
	Steps map[string]json.RawMessage `json:"steps"`
	// Capacity is the capacity search's bound and budget (CAPACITY=1).
	Capacity struct {
		P99Ms           float64 `json:"p99_ms"`
		ProbeS          float64 `json:"probe_s"`
		WarmupS         float64 `json:"warmup_s"`
		QuickProbeS     float64 `json:"quick_probe_s"`
		QuickWarmupS    float64 `json:"quick_warmup_s"`
		Brackets        int     `json:"brackets"`
		Bisections      int     `json:"bisections"`
		QuickBisections int     `json:"quick_bisections"`
		MaxInFlight     int     `json:"max_in_flight"`
	} `json:"capacity"`
}

// Load parses the embedded parameters.
func Load() Params {
	var p Params
	if err := json.Unmarshal(k6.ParamsJSON, &p); err != nil {
		panic("k6/lib/params.json: " + err.Error()) // embedded at build time; a test parses it
	}
	return p
}

// Scaled converts a duration on the articles' clock (seconds) to the
// bench's clock: ×scale faster, every ratio unchanged.
func (p Params) Scaled(articleSeconds float64) time.Duration {
	return time.Duration(articleSeconds / p.Clock.Scale * float64(time.Second))
}

// ForHitRatio converts a TTL on the articles' clock to the bench's clock
// of the claims judged by a hit ratio (steps 2 and 5). Their load is a
// saturating closed loop, whose request rate the ×scale clock does not
// speed up: at ×100 a 30 s TTL became 300 ms while each hot key still
// got the same requests per second, so the hit ratio followed how many
// requests a machine sent per 300 ms — 93 % here natively, 65 % through
// Docker's slower round trips, and step 2's verdict with it. On this
// slower clock every hot key is requested many times per TTL window even
// on a 4× slower machine (ours: the articles give no request rate).
func (p Params) ForHitRatio(articleSeconds float64) time.Duration {
	return time.Duration(articleSeconds / p.Clock.HitRatioScale * float64(time.Second))
}

// InvalidationBound is how late a replica may still serve an item another
// replica changed (step 10), on the bench's clock.
func (p Params) InvalidationBound() time.Duration {
	return time.Duration(p.ScaleOut.InvalidationBoundMS * float64(time.Millisecond))
}

// Step decodes the section of params.json's "steps" named slug into a T,
// the struct the step declares with its json tags: the k6 script reads
// the same section as params.steps[slug]. A key of the section that T does
// not name, or a field of T the section lacks, is an error, as
// TestStructMirrorsTheJSON holds Params to the file: a misspelt parameter
// fails instead of reading as 0. An "about" note (or a "<key>_about") is
// for people, as in every other section, and is not decoded.
func Step[T any](p Params, slug string) (T, error) {
	var v T
	raw, ok := p.Steps[slug]
	if !ok {
		return v, fmt.Errorf("k6/lib/params.json: no steps.%s section: add one with the keys %T reads", slug, v)
	}
	var section map[string]any
	if err := json.Unmarshal(raw, &section); err != nil {
		return v, fmt.Errorf("k6/lib/params.json, steps.%s: %w", slug, err)
	}
	if err := decodeStep(section, &v); err != nil {
		return v, fmt.Errorf("k6/lib/params.json, steps.%s: %w (each key other than an \"about\" note must be a json tag of %T: add the field, or correct or remove the key)", slug, err, v)
	}
	have := Keys("", section)
	for _, f := range slices.Sorted(maps.Keys(Fields("", reflect.TypeFor[T]()))) {
		if !have[f] {
			return v, fmt.Errorf("k6/lib/params.json, steps.%s: no %q, which %T reads: add it to the section", slug, f, v)
		}
	}
	return v, nil
}

// decodeStep decodes a step's section into v, strictly, without its
// notes: the same keys Keys skips, at any depth.
func decodeStep(section map[string]any, v any) error {
	b, err := json.Marshal(withoutNotes(section))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func withoutNotes(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, x := range m {
		if k == "about" || strings.HasSuffix(k, "_about") {
			continue
		}
		if sub, ok := x.(map[string]any); ok {
			x = withoutNotes(sub)
		}
		out[k] = x
	}
	return out
}

// Keys lists a JSON object's paths, objects descended into, but the
// "about" notes (for people), the event (a body, sent whole) and the
// steps' sections (each held to its struct by Step).
func Keys(prefix string, m map[string]any) map[string]bool {
	out := map[string]bool{}
	for k, v := range m {
		if k == "about" || strings.HasSuffix(k, "_about") {
			continue
		}
		p := prefix + k
		if sub, ok := v.(map[string]any); ok && p != "event" && p != "steps" {
			maps.Copy(out, Keys(p+".", sub))
			continue
		}
		out[p] = true
	}
	return out
}

// Fields lists a struct's JSON paths, nested structs descended into.
func Fields(prefix string, t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			maps.Copy(out, Fields(prefix+name+".", f.Type))
			continue
		}
		out[prefix+name] = true
	}
	return out
}
