package catalog

import (
	"github.com/peakload/workshop/internal/given/messages"

	"context"
	_ "embed"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed schema.sql
var schema string

// schemaVersion changes whenever the schema or the generator changes, so an
// old catalogue is rebuilt instead of silently measured.
const schemaVersion = 3

// Size says how big the catalogue is; everything else follows from Items.
type Size struct {
	Items        int
	Streamers    int // Items / 10: each streamer has ten items
	ViewsPerItem int // the views log: ~150 rows per item, 15M for 100k items
}

// SizeFor returns the catalogue shape for n items.
func SizeFor(n int) Size {
	return Size{Items: n, Streamers: max(1, n/10), ViewsPerItem: 150}
}

// StreamerOf maps an item to its streamer: ten items per streamer, spread
// over the id space so a streamer's items are not neighbours.
func (s Size) StreamerOf(item int32) int32 {
	return int32((int64(item)*7919)%int64(s.Streamers)) + 1
}

// Seeded reports whether the database already holds this exact catalogue.
func Seeded(ctx context.Context, pool *pgxpool.Pool, size Size) bool {
	var version, items int
	err := pool.QueryRow(ctx, "SELECT version, items FROM catalog_meta").Scan(&version, &items)
	return err == nil && version == schemaVersion && items == size.Items
}

// Seed (re)creates and loads the catalogue unless it is already there.
// Everything is loaded with COPY inside the transaction that creates the
// tables, so PostgreSQL (wal_level=minimal) writes no WAL for it; indexes are
// built afterwards, which is much faster than maintaining them row by row.
func Seed(ctx context.Context, pool *pgxpool.Pool, size Size, log func(string, ...any)) error {
	if Seeded(ctx, pool, size) {
		return nil
	}
	start := time.Now()
	log("%s", messages.T("seed.start", size.Items, size.Streamers, size.Items*size.ViewsPerItem))
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, schema); err != nil {
		return fmt.Errorf("seed: create schema: %w", err)
	}
	if err := copyTables(ctx, tx, size, log); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("seed: commit: %w", err)
	}
	if err := buildIndexes(ctx, conn, size, log); err != nil {
		return err
	}
	log("%s", messages.T("seed.done", time.Since(start).Seconds()))
	return nil
}

// copyTables loads every table with COPY, in tx, the one that created them.
func copyTables(ctx context.Context, tx pgx.Tx, size Size, log func(string, ...any)) error {
	g := newGenerator(DefaultSeed)
	for _, load := range []struct {
		table string
		cols  []string
		rows  pgx.CopyFromSource
	}{
		{"categories", []string{"id", "slug", "name"}, categoryRows()},
		{"tags", []string{"id", "name"}, tagRows()},
		{"streamers", []string{"id", "handle", "display_name", "avatar_url", "bio", "followers", "verified", "country"}, streamerRows(g, size)},
		{"items", []string{"id", "streamer_id", "category_id", "title", "description", "language", "thumbnail_url", "started_at", "is_live"}, itemRows(g, size)},
		{"item_tags", []string{"item_id", "tag_id"}, itemTagRows(g, size)},
		{"live_stats", []string{"item_id", "viewers", "likes", "comments", "updated_at"}, statsRows(size)},
		{"views", []string{"item_id", "viewer_id", "viewed_at"}, viewRows(size)},
	} {
		t := time.Now()
		if load.table == "views" { // the long one: say so before, not only after
			log("%s", messages.T("seed.copying", load.table, size.Items*size.ViewsPerItem))
		}
		n, err := tx.CopyFrom(ctx, pgx.Identifier{load.table}, load.cols, load.rows)
		if err != nil {
			return fmt.Errorf("seed: copy %s: %w", load.table, err)
		}
		log("%s", messages.T("seed.table", load.table, n, time.Since(t).Seconds()))
	}
	return nil
}

// buildIndexes adds the keys and indexes once the rows are in, then
// records the catalogue as seeded.
func buildIndexes(ctx context.Context, conn *pgxpool.Conn, size Size, log func(string, ...any)) error {
	start := time.Now()
	log("%s", messages.T("seed.indexing"))
	for _, stmt := range []string{
		"ALTER TABLE categories ADD PRIMARY KEY (id)",
		"ALTER TABLE tags ADD PRIMARY KEY (id)",
		"ALTER TABLE streamers ADD PRIMARY KEY (id)",
		"ALTER TABLE items ADD PRIMARY KEY (id)",
		"CREATE INDEX items_streamer ON items (streamer_id)",
		"ALTER TABLE item_tags ADD PRIMARY KEY (item_id, tag_id)",
		"ALTER TABLE live_stats ADD PRIMARY KEY (item_id)",
		"CREATE INDEX views_item_time ON views (item_id, viewed_at) INCLUDE (viewer_id)",
		"VACUUM ANALYZE",
		fmt.Sprintf("INSERT INTO catalog_meta (version, items, seed) VALUES (%d, %d, %d)", schemaVersion, size.Items, DefaultSeed),
	} {
		t := time.Now()
		if _, err := conn.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("seed: %s: %w", stmt, err)
		}
		if d := time.Since(t); d > time.Second {
			log("    %-22.22s %5.1fs", stmt, d.Seconds())
		}
	}
	log("%s", messages.T("seed.indexed", time.Since(start).Seconds()))
	return nil
}

// rows adapts a generator function to pgx's COPY source. next fills row and
// reports false when done; the row slice is reused, nothing is allocated per row.
func rows(width int, next func(row []any) bool) pgx.CopyFromSource {
	row := make([]any, width)
	return pgx.CopyFromFunc(func() ([]any, error) {
		if !next(row) {
			return nil, nil
		}
		return row, nil
	})
}

// numbered is rows 1 to n of width columns, fill writing row id's: the
// categories, tags, streamers and items are numbered from 1, as SERIAL would.
func numbered(n, width int, fill func(id int32, row []any)) pgx.CopyFromSource {
	id := int32(0)
	return rows(width, func(r []any) bool {
		if id++; int(id) > n {
			return false
		}
		fill(id, r)
		return true
	})
}

func categoryRows() pgx.CopyFromSource {
	return numbered(len(categories), 3, func(id int32, r []any) {
		slug := categories[id-1]
		r[0], r[1], r[2] = id, slug, fmt.Sprintf("%c%s", slug[0]-32, slug[1:])
	})
}

func tagRows() pgx.CopyFromSource {
	return numbered(len(tagNames), 2, func(id int32, r []any) {
		r[0], r[1] = id, tagNames[id-1]
	})
}

func streamerRows(g generator, size Size) pgx.CopyFromSource {
	return numbered(size.Streamers, 8, func(id int32, r []any) {
		s := g.streamer(id)
		r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7] = id, s.handle, s.displayName, s.avatar, s.bio, s.followers, s.verified, s.country
	})
}

func itemRows(g generator, size Size) pgx.CopyFromSource {
	return numbered(size.Items, 9, func(id int32, r []any) {
		it := g.item(id, int32(size.Items))
		r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8] = id, size.StreamerOf(id), it.categoryID, it.title, it.description, it.language, it.thumbnail, it.startedAt, it.isLive
	})
}

func itemTagRows(g generator, size Size) pgx.CopyFromSource {
	id, tags := int32(0), []int32(nil)
	return rows(2, func(r []any) bool {
		for len(tags) == 0 {
			if id++; int(id) > size.Items {
				return false
			}
			tags = g.item(id, int32(size.Items)).tagIDs
		}
		r[0], r[1] = id, tags[0]
		tags = tags[1:]
		return true
	})
}

func statsRows(size Size) pgx.CopyFromSource {
	id := int32(0)
	rng := rand.New(rand.NewPCG(DefaultSeed, 3))
	return rows(5, func(r []any) bool {
		if id++; int(id) > size.Items {
			return false
		}
		v := int32(rng.ExpFloat64() * 300)
		r[0], r[1], r[2], r[3], r[4] = id, v, v*int32(5+rng.IntN(20)), v*int32(1+rng.IntN(5)), Epoch
		return true
	})
}

// viewRows is the views log: ~150 views per item over the 36 hours before
// Epoch, by viewers drawn from a population twenty times the item count.
// Two thirds of them fall in the audience query's 24-hour window.
func viewRows(size Size) pgx.CopyFromSource {
	rng := rand.New(rand.NewPCG(DefaultSeed, 4))
	viewers := int32(size.Items * 20)
	id, left := int32(0), 0
	const window = 36 * 3600
	return rows(3, func(r []any) bool {
		for left == 0 {
			if id++; int(id) > size.Items {
				return false
			}
			left = size.ViewsPerItem/2 + rng.IntN(size.ViewsPerItem+1)
		}
		left--
		r[0], r[1], r[2] = id, rng.Int32N(viewers)+1, Epoch.Add(-time.Duration(rng.IntN(window))*time.Second)
		return true
	})
}
