'use strict';
// The workshop's catalogue as the originals read it: the item-detail query
// and its public JSON, the same as internal/given/catalog's (ItemQuery, Row.Response),
// so a DB read costs PostgreSQL the same on every stack and moves the same
// fields. A Go test holds the query to catalog.ItemQuery and each original's
// answer to the Go server's.

// ITEM_QUERY is catalog.ItemQuery, word for word: four joins, the tags
// aggregated, and the streamer's distinct viewers over 24 hours.
// Data table: catalog.ItemQuery's text again, for the Node stacks; the Go
// test TestLibItemQueryIsCatalogs (internal/harness/original) holds the two equal.
const ITEM_QUERY = `
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
 WHERE i.id = $1`;

// EPOCH is the catalogue's "now" (catalog.Epoch): the views log ends there.
const EPOCH = '2026-01-01T00:00:00Z';

// MAX_ID: ids are PostgreSQL integers (int4), as catalog.ParseID accepts.
const MAX_ID = 2 ** 31 - 1;

// itemQuery is the query for node-postgres: rows as arrays, since three
// columns are named "id"; a name makes it a prepared statement, parsed once
// per connection as pgx does.
function itemQuery(id) {
  return { name: 'item', text: ITEM_QUERY, values: [id, EPOCH], rowMode: 'array' };
}

// useGoTypes makes node-postgres hand timestamps over as PostgreSQL's text,
// rewritten as Go's encoding/json writes a UTC time (RFC 3339, the
// fraction's trailing zeros dropped): a JS Date would keep only
// milliseconds, and the body would not have the Go server's bytes. The
// pool must run its sessions in UTC (PG_OPTIONS below). count(…) is a
// bigint, which node-postgres would return as a string.
function useGoTypes(pg) {
  pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (text) =>
    text.replace(' ', 'T').replace(/(\.\d*?)0+(?=\+)/, '$1').replace(/\.(?=\+)/, '').replace(/\+00$/, 'Z'));
  pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));
}

// PG_OPTIONS is the pool's session setting for useGoTypes' text.
const PG_OPTIONS = '-c TimeZone=UTC';

// goTime is a timestamp as useGoTypes left it (a Date, if it was not used).
function goTime(d) {
  return typeof d === 'string' ? d : d.toISOString().replace(/\.?0+Z$/, 'Z');
}

// itemResponse turns a row into the public response, field for field as
// catalog.Row.Response.
function itemResponse(r) {
  const [id, title, description, language, thumbnailURL, startedAt, isLive,
    streamerID, handle, displayName, avatarURL, bio, followers, verified, country,
    categoryID, categorySlug, categoryName, tags,
    viewers, likes, comments, statsUpdated, uniqueViewers] = r;
  return {
    id, title, description, language, thumbnail_url: thumbnailURL,
    url: `https://live.example.com/${handle}/${id}`,
    started_at: goTime(startedAt), is_live: isLive,
    streamer: {
      id: streamerID, handle, display_name: displayName, avatar_url: avatarURL,
      bio, followers, verified, country,
    },
    category: { id: categoryID, slug: categorySlug, name: categoryName },
    tags: tags || [],
    stats: { viewers, likes, comments, updated_at: goTime(statsUpdated) },
    // count() is a bigint, which node-postgres hands over as a string.
    audience: { unique_viewers_24h: Number(uniqueViewers) },
  };
}

module.exports = { ITEM_QUERY, EPOCH, MAX_ID, PG_OPTIONS, itemQuery, itemResponse, useGoTypes };
