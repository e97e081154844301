-- The livestream catalogue. Keys and indexes are added after the COPY (seed.go).
DROP TABLE IF EXISTS catalog_meta, categories, tags, streamers, items, item_tags, live_stats, views CASCADE;

CREATE TABLE catalog_meta (version int NOT NULL, items int NOT NULL, seed bigint NOT NULL,
                           seeded_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE categories (id int NOT NULL, slug text NOT NULL, name text NOT NULL);
CREATE TABLE tags       (id int NOT NULL, name text NOT NULL);
CREATE TABLE streamers  (id int NOT NULL, handle text NOT NULL, display_name text NOT NULL,
                         avatar_url text NOT NULL, bio text NOT NULL, followers int NOT NULL,
                         verified bool NOT NULL, country text NOT NULL);
CREATE TABLE items      (id int NOT NULL, streamer_id int NOT NULL, category_id int NOT NULL,
                         title text NOT NULL, description text NOT NULL, language text NOT NULL,
                         thumbnail_url text NOT NULL, started_at timestamptz NOT NULL, is_live bool NOT NULL);
CREATE TABLE item_tags  (item_id int NOT NULL, tag_id int NOT NULL);
-- The hot, often-changing part: the worker (the article's cron jobs) rewrites it.
CREATE TABLE live_stats (item_id int NOT NULL, viewers int NOT NULL, likes int NOT NULL,
                         comments int NOT NULL, updated_at timestamptz NOT NULL);
-- The views log (~10M rows) behind the "unique viewers in 24 h" aggregate.
CREATE TABLE views      (item_id int NOT NULL, viewer_id int NOT NULL, viewed_at timestamptz NOT NULL);
