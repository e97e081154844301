package catalog

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
)

// drain is every row a COPY source gives, each copied (rows reuses its slice).
func drain(t *testing.T, src pgx.CopyFromSource) [][]any {
	t.Helper()
	var out [][]any
	for src.Next() {
		v, err := src.Values()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, append([]any(nil), v...))
	}
	if err := src.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The seeded tables are numbered from 1 to their size, one row each, the
// id first, as the schema's SERIAL columns and the item query expect.
func TestSeedRowsAreNumberedFromOne(t *testing.T) {
	size := Size{Streamers: 7, Items: 20}
	g := newGenerator(1)
	for _, c := range []struct {
		name  string
		src   pgx.CopyFromSource
		n     int
		width int
	}{
		{"categories", categoryRows(), len(categories), 3},
		{"tags", tagRows(), len(tagNames), 2},
		{"streamers", streamerRows(g, size), size.Streamers, 8},
		{"items", itemRows(g, size), size.Items, 9},
	} {
		got := drain(t, c.src)
		if len(got) != c.n {
			t.Errorf("%s: %d rows, want %d", c.name, len(got), c.n)
			continue
		}
		for i, r := range got {
			if len(r) != c.width || r[0] != int32(i+1) {
				t.Errorf("%s: row %d is %v, want %d columns, id %d first", c.name, i, r, c.width, i+1)
				break
			}
		}
	}
	if got := drain(t, categoryRows())[0]; fmt.Sprint(got[1:]) != fmt.Sprint([]any{categories[0], string(categories[0][0]-32) + categories[0][1:]}) {
		t.Errorf("the first category row is %v, want its slug and its capitalised name", got)
	}
	if got := drain(t, tagRows())[len(tagNames)-1]; got[1] != tagNames[len(tagNames)-1] {
		t.Errorf("the last tag row is %v, want the last tag's name", got)
	}
}
