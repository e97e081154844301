package comparison

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/result"
)

// A lead's view: many people's results files in one folder (one
// subfolder per person, or files named after them), one table per step
// with one row per person, each claim's verdict in a column.

// Entry is one person's run of one step.
type Entry struct {
	Person string
	Path   string
	Result *result.Result
}

// Person names whose results a file holds: the results' "who" when the
// bench recorded it, else the file's first folder under root, else its
// name.
func Person(root, path string, r *result.Result) string {
	if who, _ := r.Params["who"].(string); who != "" {
		return who
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) > 1 {
		return parts[0]
	}
	return strings.TrimSuffix(parts[0], ".json")
}

// EachJSON calls fn with every *.json file under root and its bytes, in
// lexical order: a class's folder holds results and progress files side
// by side, and each reader keeps the ones that parse as its own.
func EachJSON(root string, fn func(path string, b []byte) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return fn(path, b)
	})
}

// ReadFolder reads every results file under root (*.json holding runs; a
// person's latest.json is skipped when the timestamped file it copies is
// there too), grouped by step, each step's rows ordered by person.
func ReadFolder(root string) (map[int][]Entry, error) {
	out := map[int][]Entry{}
	seen := map[string]bool{} // person, step, start time: a latest.json and its twin
	err := EachJSON(root, func(path string, b []byte) error {
		var r result.Result
		if json.Unmarshal(b, &r) != nil || len(r.Runs) == 0 {
			return nil // not a results file (a progress.json, a drill's notes…)
		}
		e := Entry{Person: Person(root, path, &r), Path: path, Result: &r}
		key := fmt.Sprint(e.Person, r.Step, r.StartedAt.UnixNano())
		if seen[key] {
			return nil
		}
		seen[key] = true
		out[r.Step] = append(out[r.Step], e)
		return nil
	})
	for step := range out {
		slices.SortFunc(out[step], func(a, b Entry) int {
			return cmp.Or(cmp.Compare(a.Person, b.Person), a.Result.StartedAt.Compare(b.Result.StartedAt))
		})
	}
	return out, err
}

// StepTable is one step's table in language l: a row per person and run,
// a column per claim (its verdict), and each row's fastest req/s.
func StepTable(entries []Entry, l messages.Lang) (header []string, rows [][]string) {
	var ids []string
	for _, e := range entries {
		for _, c := range e.Result.Claims {
			if !slices.Contains(ids, c.ID) {
				ids = append(ids, c.ID)
			}
		}
	}
	header = append(l.Words("compare.col_person", "compare.col_when", "compare.col_code", "compare.col_rounds"), ids...)
	header = append(header, l.T("compare.col_fastest"))
	for _, e := range entries {
		r := e.Result
		code := l.T("compare.theirs")
		if on, _ := r.Params["solution"].(bool); on {
			code = l.T("compare.reference")
		}
		if q, _ := r.Params["quick"].(bool); q {
			code += ", QUICK"
		}
		rounds := max(1, len(r.Rounds))
		row := []string{e.Person, r.StartedAt.UTC().Format("2006-01-02 15:04"), code, fmt.Sprint(rounds)}
		for _, id := range ids {
			v := "–"
			for _, c := range r.Claims {
				if c.ID == id {
					v = mark(c, l)
				}
			}
			row = append(row, v)
		}
		var best result.Run
		for _, x := range r.Runs {
			if x.RPS > best.RPS {
				best = x
			}
		}
		rows = append(rows, append(row, fmt.Sprintf("%.0f (%s)", best.RPS, best.Variant)))
	}
	return header, rows
}

// mark is a claim's verdict in one cell.
func mark(c result.Claim, l messages.Lang) string {
	switch {
	case c.Unstable:
		return l.T("verdict.unstable_word")
	case c.Withheld():
		return l.T("compare.not_judged")
	case c.Reproduced == nil:
		return "–"
	case *c.Reproduced:
		return "✓"
	}
	return "✗"
}
