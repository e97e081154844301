package scenario

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/result"
)

var (
	updateTexts = flag.Bool("update-texts", false, "rewrite the reference runs' claim texts from the claims' declarations (never a figure or a verdict)")
	addClaims   = flag.Bool("add-claims", false, "add to the reference runs the claims declared since they were recorded, judged on their own recorded figures")
)

// The committed reference runs print what the claims declare today: each
// claim judged again on the run's own recorded figures gives the same
// text, tolerance, measured line and verdict. A claim whose wording changed
// (a source corrected, a figure marked ours) would otherwise go on
// printing the old wording in every README and deck made from the
// reference. `go test ./internal/harness/scenario -run TestReferenceRunsPrintTheDeclaredTexts
// -update-texts` rewrites the wording; a verdict that changed is never
// rewritten: re-record the step.
func TestReferenceRunsPrintTheDeclaredTexts(t *testing.T) {
	env := Env{Params: params.Load()}
	for _, s := range All() {
		if s.Claims == nil || s.Unrecorded {
			continue
		}
		path := filepath.Join("..", "..", "..", "results", "reference", fmt.Sprintf("step-%d.json", s.N))
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r result.Result
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out := raw
		sources := map[string]result.Source{} // claim id → its declared source, where the file's differs
		for _, now := range s.Claims(&r, env) {
			was := recorded(r.Claims, now.ID)
			if was == nil {
				continue // a claim added since the run: the README says "not measured"
			}
			if a, b := mustJSON(was.Source), mustJSON(now.Source); a != b {
				if !*updateTexts {
					t.Errorf("step %d %s: the reference's source reads %s, the claim declares %s (go test ./internal/harness/scenario -run %s -update-texts)", s.N, now.ID, a, b, t.Name())
				}
				sources[now.ID] = now.Source
			}
			judged := was.Reproduced
			if was.Withheld() { // the bench withheld the verdict (a load tool's limit, a busy machine): compare what it read
				judged = was.IfJudged
			}
			if before, after := (result.Claim{Reproduced: judged}).Verdict(), (result.Claim{Reproduced: now.Reproduced}).Verdict(); before != after {
				t.Errorf("step %d %s: recorded %s, judged again on its own figures %s: re-record step %d", s.N, now.ID, before, after, s.N)
			}
			for _, f := range []struct{ name, was, now string }{
				{"article", was.Article, now.Article}, {"tolerance", was.Tolerance, now.Tolerance}, {"measured", was.Measured, now.Measured},
			} {
				if f.was == f.now {
					continue
				}
				if !*updateTexts {
					t.Errorf("step %d %s: the reference's %s reads\n\t%q\nthe claim declares\n\t%q\n(go test ./internal/harness/scenario -run %s -update-texts)", s.N, now.ID, f.name, f.was, f.now, t.Name())
					continue
				}
				if out, err = replaceField(out, now.ID, f.name, f.was, f.now); err != nil {
					t.Fatalf("%s: %v", path, err)
				}
			}
		}
		if *updateTexts && len(sources) > 0 {
			if out, err = withSources(out, sources); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		if *addClaims {
			if out, err = withAddedClaims(s, out); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		if (*updateTexts || *addClaims) && !bytes.Equal(out, raw) {
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote the claim texts of %s", path)
		}
	}
}

// withSources writes into a reference run (file) the sources its claims
// declare (a results file is the record, read without the code that wrote
// it); the file is written again whole.
func withSources(file []byte, sources map[string]result.Source) ([]byte, error) {
	var r result.Result
	if err := json.Unmarshal(file, &r); err != nil {
		return nil, err
	}
	for i, c := range r.Claims {
		if src, ok := sources[c.ID]; ok {
			r.Claims[i].Source = src
		}
	}
	out, err := json.MarshalIndent(&r, "", "  ")
	return append(out, '\n'), err
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// withAddedClaims adds to a reference run (file) the claims its step
// declares that it lacks, in declared order, each judged on the run's own
// recorded figures: what its bench would have printed, had the claim been
// there (a claim that needs a figure the run lacks needs a re-record). The
// recorded claims keep their verdicts. The file is written again whole.
func withAddedClaims(s Step, file []byte) ([]byte, error) {
	var r result.Result
	if err := json.Unmarshal(file, &r); err != nil {
		return nil, err
	}
	cp := r
	cp.Notes = nil // claims may append notes: judge on a copy
	var claims []result.Claim
	added := false
	for _, now := range s.Claims(&cp, Env{Params: params.Load()}) {
		if was := recorded(r.Claims, now.ID); was != nil {
			claims = append(claims, *was)
			continue
		}
		if now.Reproduced == nil {
			return nil, fmt.Errorf("claim %s: the run lacks the figures it reads: re-record step %d", now.ID, s.N)
		}
		claims, added = append(claims, now), true
	}
	for _, c := range r.Claims { // a claim no longer declared stays where the run put it
		if recorded(claims, c.ID) == nil {
			claims = append(claims, c)
		}
	}
	if !added {
		return file, nil
	}
	r.Claims = claims
	b, err := json.MarshalIndent(&r, "", "  ")
	return append(b, '\n'), err
}

func recorded(cs []result.Claim, id string) *result.Claim {
	for i := range cs {
		if cs[i].ID == id {
			return &cs[i]
		}
	}
	return nil
}

// replaceField swaps one string field of claim id in the file's own text,
// so the rest of the file (figures, order, layout) is untouched.
func replaceField(file []byte, id, field, was, now string) ([]byte, error) {
	key, _ := json.Marshal(id)
	at := bytes.Index(file, append([]byte(`"id": `), key...))
	if at < 0 {
		return nil, fmt.Errorf("claim %s not found", id)
	}
	old, _ := json.Marshal(was)
	nw, _ := json.Marshal(now)
	needle := append([]byte(`"`+field+`": `), old...)
	i := bytes.Index(file[at:], needle)
	if i < 0 {
		return nil, fmt.Errorf("claim %s: field %s not found as recorded", id, field)
	}
	i += at + len(field) + 4
	return append(append(append([]byte{}, file[:i]...), nw...), file[i+len(old):]...), nil
}
