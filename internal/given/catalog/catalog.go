// Package catalog is the read side of the workshop: a livestream catalogue
// in PostgreSQL (items, streamers, categories, tags, live stats, a views
// log), the item-detail query, its JSON response, a hot-skewed id picker
// and the worker that keeps the live stats changing.
package catalog

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/peakload/workshop/internal/given/metrics"
)

// ErrNotFound is returned for an id that is not in the catalogue.
var ErrNotFound = errors.New("not found")

// ItemQuery reads one item the way a real detail page does: four joins, the
// tags aggregated into an array, and the streamer's distinct viewers over
// the last 24 hours from the views log. That last aggregate is what makes a
// direct read cost about half a millisecond of PostgreSQL CPU (ours,
// measured: ~0.55 ms; article A gives no per-query figure).
//
// Data table: originals/lib/catalog.js's ITEM_QUERY is this text again, for
// the Node stacks; TestLibItemQueryIsCatalogs holds the two equal.
const ItemQuery = `
SELECT i.id, i.title, i.description, i.language, i.thumbnail_url, i.started_at, i.is_live,
       s.id, s.handle, s.display_name, s.avatar_url, s.bio, s.followers, s.verified, s.country,
       c.id, c.slug, c.name,
       COALESCE((SELECT array_agg(t.name ORDER BY t.name)
                   FROM item_tags it JOIN tags t ON t.id = it.tag_id
                  WHERE it.item_id = i.id), '{}'),
       ls.viewers, ls.likes, ls.comments, ls.updated_at,
       (SELECT count(DISTINCT v.viewer_id)
          FROM items si JOIN views v ON v.item_id = si.id
         WHERE si.streamer_id = i.streamer_id
           AND v.viewed_at >  $2::timestamptz - interval '24 hours'
           AND v.viewed_at <= $2::timestamptz)
  FROM items i
  JOIN streamers s   ON s.id = i.streamer_id
  JOIN categories c  ON c.id = i.category_id
  JOIN live_stats ls ON ls.item_id = i.id
 WHERE i.id = $1`

// Store reads items from PostgreSQL.
type Store struct {
	Pool *pgxpool.Pool
}

// DefaultPool is the connections a step server keeps to PostgreSQL.
const DefaultPool = 16

// MemoryItems bounds the items one server keeps in its in-process tier
// (step 5's burst cache, and step 10's replicas): ~1.5 KB per item, ~15 MB
// per instance, whatever the traffic.
const MemoryItems = 10_000

// Open connects to PostgreSQL with every query counted at the driver,
// with DefaultPool connections.
func Open(ctx context.Context, url string) (*Store, error) { return OpenPool(ctx, url, DefaultPool) }

// OpenPool is Open with a pool of conns connections, DefaultPool when 0:
// a step server passes PEAKLOAD_PG_POOL's (serverenv.Config.PGPool), step 9
// its rows' PG_POOL.
func OpenPool(ctx context.Context, url string, conns int) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("catalog: parse %q: %w", url, err)
	}
	cfg.MaxConns = int32(cmp.Or(conns, DefaultPool))
	cfg.ConnConfig.Tracer = metrics.PGTracer{}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("catalog: connect: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("catalog: PostgreSQL at %s does not answer (is the stack up? `make up`): %w", cfg.ConnConfig.Host, err)
	}
	return &Store{Pool: pool}, nil
}

// Close releases the pool.
func (s *Store) Close() { s.Pool.Close() }

// Item runs ItemQuery: exactly one database query per call.
func (s *Store) Item(ctx context.Context, id int32) (Row, error) {
	var r Row
	err := s.Pool.QueryRow(ctx, ItemQuery, id, Epoch).Scan(
		&r.ID, &r.Title, &r.Description, &r.Language, &r.ThumbnailURL, &r.StartedAt, &r.IsLive,
		&r.StreamerID, &r.Handle, &r.DisplayName, &r.AvatarURL, &r.Bio, &r.Followers, &r.Verified, &r.Country,
		&r.CategoryID, &r.CategorySlug, &r.CategoryName, &r.Tags,
		&r.Viewers, &r.Likes, &r.Comments, &r.StatsUpdated, &r.UniqueViewers)
	if errors.Is(err, pgx.ErrNoRows) {
		return Row{}, fmt.Errorf("item %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Row{}, fmt.Errorf("item %d: %w", id, err)
	}
	return r, nil
}

// ParseID validates a path id: a positive 32-bit integer, nothing else.
func ParseID(s string) (int32, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("invalid item id %q: want a positive integer", s)
	}
	return int32(n), nil
}

// Warm loads the catalogue's tables and indexes into PostgreSQL's buffer
// cache (pg_prewarm), so the first seconds of a bench do not measure disk
// reads. Without the extension it does nothing: the bench's warm-up phase
// then does the same job more slowly.
func Warm(ctx context.Context, pool *pgxpool.Pool) {
	if _, err := pool.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_prewarm"); err != nil {
		return
	}
	_, _ = pool.Exec(ctx, `SELECT pg_prewarm(c) FROM unnest(ARRAY['items','items_pkey','items_streamer','streamers',
		'streamers_pkey','categories','tags','item_tags','item_tags_pkey','live_stats','live_stats_pkey','views_item_time']::regclass[]) AS c`)
}

// ItemJSON reads an item and renders its public response: what the cache
// steps store, so a hit returns bytes without touching the database or
// the encoder.
func (s *Store) ItemJSON(ctx context.Context, id int32) ([]byte, error) {
	row, err := s.Item(ctx, id)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(row.Response())
	if err != nil {
		return nil, fmt.Errorf("item %d: encode: %w", id, err)
	}
	return b, nil
}

// ItemKey is the Redis key under which steps 2–5 cache an item's response
// body: one key per item, so a change of one item expires one key.
func ItemKey(id int32) string { return "item:" + strconv.Itoa(int(id)) }
