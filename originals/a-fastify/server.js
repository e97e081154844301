'use strict'
// Article A on its own stack: Fastify on Node, node-postgres, ioredis,
// @fastify/etag and node-cache — "API NodeJS của tôi đã handle peak traffic
// như thế nào?" (Minh Monmen), written afresh from the article's text.
//
// One process serves every read route of the workshop's steps 1–5, as the Go
// step server does, so one bench compares before and after on one runtime:
//
//   GET /empty                 the ceiling: no work, a body as big as an item's
//   GET /items/:id             straight from PostgreSQL (A1)
//   GET /cached/items/:id      cache-aside through Redis, getOrSet (A2)
//   GET /etag/items/:id        the same, with a weak ETag and 304 (A3)
//   GET /coalesced/items/:id   cache-aside, one load per key in flight (A4)
//   GET /burst/items/:id       node-cache in front of the coalesced read (A5)
//   GET /healthz               the bench waits for it
//
// The bodies are byte for byte the Go server's (internal/given/catalog), the Redis
// keys are its keys ("item:<id>"), the TTLs are the step's (the bench passes
// them in PEAKLOAD_REDIS_TTL_MS and PEAKLOAD_BURST_TTL_MS): both stacks do the
// same work, and only the runtime differs.

const fastify = require('fastify')
const fastifyEtag = require('@fastify/etag')
const NodeCache = require('node-cache')
const Redis = require('ioredis')
const pg = require('pg')

const env = (name, fallback) => process.env[name] || fallback
const [host, port] = env('PEAKLOAD_ADDR', '127.0.0.1:8080').split(/:(?=\d+$)/)
const redisTTL = Number(env('PEAKLOAD_REDIS_TTL_MS', '30000')) // the article's 30 s
const burstTTL = Number(env('PEAKLOAD_BURST_TTL_MS', '5000')) // the article's example: 5 s

// ---- PostgreSQL: node-postgres ("có dùng node-postgres làm driver") ----

// Timestamps as Go writes them, bigints as numbers (originals/lib/catalog.js).
const catalog = require('../lib/catalog.js')
catalog.useGoTypes(pg)

const db = new pg.Pool({
  connectionString: env('PEAKLOAD_POSTGRES_URL', 'postgres://workshop@127.0.0.1:15432/workshop?sslmode=disable'),
  max: Number(env('PEAKLOAD_PG_POOL', '16')), // the Go server's pool (catalog.DefaultPool)
  options: catalog.PG_OPTIONS // UTC: useGoTypes' text
})

// The item query of internal/given/catalog (ItemQuery): four joins, the tags, and
// the streamer's distinct viewers over the 24 hours before the catalogue's
// epoch. It is one statement per call: what A1 counts at PostgreSQL.
const ITEM_QUERY = `
SELECT i.id, i.title, i.description, i.language, i.thumbnail_url, i.started_at, i.is_live,
       s.id AS streamer_id, s.handle, s.display_name, s.avatar_url, s.bio, s.followers, s.verified, s.country,
       c.id AS category_id, c.slug, c.name,
       COALESCE((SELECT array_agg(t.name ORDER BY t.name)
                   FROM item_tags it JOIN tags t ON t.id = it.tag_id
                  WHERE it.item_id = i.id), '{}') AS tags,
       ls.viewers, ls.likes, ls.comments, ls.updated_at,
       (SELECT count(DISTINCT v.viewer_id)
          FROM items si JOIN views v ON v.item_id = si.id
         WHERE si.streamer_id = i.streamer_id
           AND v.viewed_at >  $2::timestamptz - interval '24 hours'
           AND v.viewed_at <= $2::timestamptz) AS unique_viewers
  FROM items i
  JOIN streamers s   ON s.id = i.streamer_id
  JOIN categories c  ON c.id = i.category_id
  JOIN live_stats ls ON ls.item_id = i.id
 WHERE i.id = $1`
const EPOCH = '2026-01-01T00:00:00Z' // catalog.Epoch

// getItemById is the article's ItemService.getItemById followed by its
// item.transform(): the public response, as JSON text — what every cache
// tier keeps, so a hit costs no query and no encoding.
async function getItemById (id) {
  const { rows } = await db.query({ name: 'item', text: ITEM_QUERY, values: [id, EPOCH] })
  if (rows.length === 0) throw notFound(id)
  const r = rows[0]
  return goJSON({
    id: r.id,
    title: r.title,
    description: r.description,
    language: r.language,
    thumbnail_url: r.thumbnail_url,
    url: `https://live.example.com/${r.handle}/${r.id}`,
    started_at: r.started_at,
    is_live: r.is_live,
    streamer: {
      id: r.streamer_id,
      handle: r.handle,
      display_name: r.display_name,
      avatar_url: r.avatar_url,
      bio: r.bio,
      followers: r.followers,
      verified: r.verified,
      country: r.country
    },
    category: { id: r.category_id, slug: r.slug, name: r.name },
    tags: r.tags,
    stats: { viewers: r.viewers, likes: r.likes, comments: r.comments, updated_at: r.updated_at },
    audience: { unique_viewers_24h: r.unique_viewers }
  })
}

// goJSON is JSON.stringify with Go's escapes (<, >, & and the two JS line
// separators as \u00xx), so the bytes, hence the ETags' inputs, match.
function goJSON (value) {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

// notFound is the 404 Fastify writes for an error carrying its status.
function notFound (id) {
  const err = new Error(`item ${id}: not found`)
  err.statusCode = 404
  return err
}

// ---- Redis: cache-aside ("getOrSet") ----

// One ioredis connection, opened at the first command (step 1 has no Redis).
// Its commands are pipelined in order on that connection, which the
// coalesced read below relies on.
const [redisHost, redisPort] = env('PEAKLOAD_REDIS_ADDR', '127.0.0.1:16379').split(/:(?=\d+$)/)
const redis = new Redis({ host: redisHost, port: Number(redisPort), lazyConnect: true })

// getOrSet is the article's (its TypeScript types dropped): "let value = await redisClient.get(key); if
// (value === null) { value = await getData(); … redisClient.set(key, value,
// …, ttl) }". The TTL is in milliseconds (PX): the bench runs the article's
// 30 s on a faster clock. The key is the Go server's (catalog.ItemKey).
async function getOrSet (key, getData, ttlMs) {
  let value = await redis.get(key)
  if (value === null) {
    value = await getData()
    await redis.set(key, value, 'PX', ttlMs)
  }
  return value
}

const itemKey = (id) => `item:${id}`

// ---- Thundering herds: the in-flight promise, per key (A4) ----

// "Define a global map to store calling promise" (the article's comment).
const callingMaps = new Map()

// coalescedGetOrSet is the article's second getOrSet. The line it asks the
// reader to notice is "const promise = getData();" — no await: the promise is
// in the map before anything yields, so every request that misses meanwhile
// finds it and waits for the same load ("Dù có 1000 request tới cùng lúc và
// bị miss cache thì cũng chỉ có 1 request tới được db mà thôi.").
//
// Two choices are ours, the same as the Go server's (internal/given/readpath.Via):
// the flight looks in Redis once more before it queries (a request that
// missed just before another flight's SET finds the value there), and the
// SET is inside the flight, so the key leaves the map only once Redis has the
// value; on one ioredis connection, every GET answered "miss" before that SET
// was answered while the flight was still in the map.
async function coalescedGetOrSet (key, getData, ttlMs) {
  const value = await redis.get(key)
  if (value !== null) return value
  if (callingMaps.has(key)) return callingMaps.get(key)
  const promise = (async () => { // no await before the map holds it
    const again = await redis.get(key)
    if (again !== null) return again
    const loaded = await getData()
    await redis.set(key, loaded, 'PX', ttlMs)
    return loaded
  })()
  callingMaps.set(key, promise)
  try {
    return await promise
  } finally {
    callingMaps.delete(key)
  }
}

// ---- Burst cache: node-cache in front of Redis (A5) ----

// "khi khởi tạo thì mình có thêm option useClones: false để thằng node-cache
// giữ nguyên object promise của mình mà không clone ra 1 promise mới": the
// cache holds the promise itself. At most 10,000 entries, the Go server's
// bound (catalog.MemoryItems); expired ones are swept every second.
const burstCache = new NodeCache({ useClones: false, maxKeys: 10000, checkperiod: 1 })

// burstGetOrSet is the article's: the promise from memory, else the Redis
// read's promise, kept burstTtl ("vài s"). Ours: a failed load leaves
// memory at once (Go's burst cache never keeps an error), and a full cache
// serves without keeping.
function burstGetOrSet (key, getData, ttlMs, burstTtlMs) {
  let value = burstCache.get(key)
  if (value === undefined) {
    value = coalescedGetOrSet(key, getData, ttlMs)
    try {
      burstCache.set(key, value, burstTtlMs / 1000)
    } catch (err) {
      if (err.name !== 'ECACHEFULL') throw err
    }
    value.catch(() => { if (burstCache.get(key) === value) burstCache.del(key) })
  }
  return value
}

// ---- HTTP: Fastify ("web server mình đang chọn Fastify") ----

const app = fastify({
  bodyLimit: 64 << 10, // the Go shell's BodyLimit
  connectionTimeout: 120000, // the Go shell's IdleTimeout
  requestTimeout: 15000, // its ReadTimeout
  return503OnClosing: true,
  logger: { level: 'error' } // a real fault (5xx) reaches the server's log
})

// A client must send its headers within 5 s, the Go shell's ReadHeaderTimeout:
// a slowloris client cannot hold a connection open byte by byte.
app.server.headersTimeout = 5000

// The id as the route schema states it: Fastify answers anything else with
// its own 400 (FST_ERR_VALIDATION), as the article's Fastify would.
const byId = {
  schema: { params: { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } }, required: ['id'] } }
}

// send writes a body that is already JSON text.
const send = (reply, body) => reply.type('application/json').send(body)

// The article's empty endpoint returns "a item response" so every test moves
// the same bytes: here, one real item read once at start-up (the Go server's
// sample item, 4242), then served as a constant.
let emptyBody = ''
app.get('/empty', async (req, reply) => send(reply, emptyBody))
app.get('/healthz', async () => ({ status: 'ok', server: 'article A on Fastify' }))

app.get('/items/:id', byId, async (req, reply) =>
  send(reply, await getItemById(req.params.id)))

app.get('/cached/items/:id', byId, async (req, reply) => {
  const id = req.params.id
  return send(reply, await getOrSet(itemKey(id), () => getItemById(id), redisTTL))
})

// "await server.register(fastifyEtag, { weak: true })" — inside a plugin of
// its own, so only this route gets ETags and /cached stays the "before".
app.register(async (scoped) => {
  await scoped.register(fastifyEtag, { weak: true })
  scoped.get('/etag/items/:id', byId, async (req, reply) => {
    const id = req.params.id
    return send(reply, await getOrSet(itemKey(id), () => getItemById(id), redisTTL))
  })
})

app.get('/coalesced/items/:id', byId, async (req, reply) => {
  const id = req.params.id
  return send(reply, await coalescedGetOrSet(itemKey(id), () => getItemById(id), redisTTL))
})

app.get('/burst/items/:id', byId, async (req, reply) => {
  const id = req.params.id
  return send(reply, await burstGetOrSet(itemKey(id), () => getItemById(id), redisTTL, burstTTL))
})

// ---- Start, and stop gracefully ----

async function main () {
  emptyBody = await getItemById(4242)
  await app.listen({ host, port: Number(port) })
  console.log(`article A on Fastify listening on http://${host}:${port} (Node ${process.version})`)
}

// On SIGTERM or SIGINT: stop accepting, let the requests in flight finish,
// close the clients, exit 0 — what the bench expects of every server.
let closing = false
async function shutdown (signal) {
  if (closing) return
  closing = true
  console.log(`${signal}: shutting down`)
  // A stop that hangs says where, and ends in 10 s rather than the
  // bench's 30 s kill.
  let stage = 'closing the listener'
  setTimeout(() => { console.error(`shutdown: stuck ${stage} after 10 s`); process.exit(1) }, 10000).unref()
  try {
    await app.close()
    burstCache.close()
    stage = 'closing the PostgreSQL pool'
    await db.end()
    stage = 'closing the Redis client'
    if (redis.status === 'ready') await redis.quit()
    else redis.disconnect()
    console.log('stopped cleanly')
    process.exit(0)
  } catch (err) {
    console.error('shutdown:', err)
    process.exit(1)
  }
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)

main().catch((err) => {
  console.error('start-up:', err.message)
  process.exit(1)
})
