'use strict';
// Article D's "after": the same API moved to Bun + ElysiaJS, the pair that
// reached 81,500 RPS on 1 vCPU in the article's table. Written afresh from
// the article's text, serving step 9's three endpoints exactly as
// d-express does, so the bench compares the stacks and nothing else:
//
//   GET  /empty       no work; the body of an item     GET /healthz  for the bench
//   POST /validate    strict JSON validation of an event (Elysia's schema)
//   GET  /items/:id   one PostgreSQL read through a small pool
//
// The bench runs it with Bun and sets PEAKLOAD_ADDR, PEAKLOAD_POSTGRES_URL,
// PG_POOL, EMPTY_BYTES and NODE_ENV=production (Elysia's validation errors
// then leave the schema out).
const { Elysia, t } = require('elysia');
// The article names PostgreSQL behind "Connection Pool" and no driver; Bun
// runs node-postgres unchanged, so both stacks use the same client, and the
// same pool: "giới hạn số lượng kết nối phù hợp với khả năng xử lý của 1
// vCPU" (PG_POOL, read with the address and the empty body in lib/d-env.js).
const { itemQuery, itemResponse, MAX_ID } = require('../lib/catalog.js');
const ev = require('../lib/event.js');
const { host, port, emptyBody, pool } = require('../lib/d-env.js').dEnv('elysia', '127.0.0.1:18542');

// "Tích hợp chặt chẽ với TypeBox": the event's grammar as a schema, which
// Elysia compiles once at start-up ("phân tích các route và schema của bạn
// ngay khi khởi động") and checks before the handler runs. What it refuses
// Elysia answers itself (422, its own JSON): Elysia's answer to bad input.
// Unknown fields are refused, not dropped: normalize is off below.
const Event = t.Object({
  event_name: t.String({ minLength: 1, maxLength: ev.MAX_NAME_LEN, pattern: ev.NAME_PATTERN }),
  data: t.Object({}, { additionalProperties: true }),
  timestamp: t.Integer({ minimum: ev.EARLIEST }),
}, { additionalProperties: false });

const json = { 'content-type': 'application/json' };

const app = new Elysia({
  normalize: false, // "Strict Validation": refuse what the schema does not name
  // Bodies capped as the Go servers cap theirs; Bun answers 413 past it.
  // Idle kept-alive connections live as long as the Go servers let them
  // (server.IdleTimeout, 2 min; Bun's default is 10 s).
  serve: { hostname: host, port, maxRequestBodySize: ev.BODY_LIMIT, idleTimeout: 120 },
})
  .get('/healthz', () => ({ status: 'ok', server: 'step 9 — elysia (original, Bun ' + Bun.version + ')' }))
  .get('/empty', () => new Response(emptyBody, { headers: json }))
  .post('/validate', ({ body, set }) => {
    // Two limits a schema cannot say: data's size in bytes, and "now".
    if (Buffer.byteLength(JSON.stringify(body.data)) > ev.MAX_DATA_SIZE) {
      set.status = 422;
      return { error: `data: is larger than ${ev.MAX_DATA_SIZE} bytes` };
    }
    if (body.timestamp > ev.latest()) {
      set.status = 422;
      return { error: 'timestamp: must be unix seconds between 2000-01-01 and now+24h' };
    }
    return { ok: true };
  }, { body: Event })
  .get('/items/:id', async ({ params, set }) => {
    const id = params.id;
    if (!/^[0-9]+$/.test(id) || Number(id) < 1 || Number(id) > MAX_ID) {
      set.status = 400;
      return { error: `invalid item id ${JSON.stringify(id)}: want a positive integer` };
    }
    let rows;
    try {
      ({ rows } = await pool.query(itemQuery(Number(id))));
    } catch (err) {
      console.error(`elysia GET /items/${id}:`, err.message);
      set.status = 500;
      return { error: 'internal server error' };
    }
    if (rows.length === 0) {
      set.status = 404;
      return { error: `item ${Number(id)}: not found` };
    }
    return itemResponse(rows[0]);
  })
  .listen({});

console.log(`step 9 — elysia (Bun ${Bun.version}) listening on http://${host}:${port} (PostgreSQL pool ${pool.options.max})`);

// Graceful shutdown: stop accepting and let in-flight requests finish
// (app.stop), then close the pool, exit 0.
async function shutdown(signal) {
  console.log(`elysia: ${signal}, shutting down`);
  await app.stop();
  await pool.end();
  console.log('step 9 — elysia stopped cleanly');
  process.exit(0);
}
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
