'use strict';
// Article D's "before": a REST API on Node.js + Express, the stack that
// "cao nhất chỉ đạt ngưỡng 12,000 đến 15,000 RPS" on 1 vCPU. Written afresh
// from the article's text, serving step 9's three endpoints so the bench
// compares it with the Go frameworks and with d-elysia (Bun):
//
//   GET  /empty       no work; the body of an item     GET /healthz  for the bench
//   POST /validate    strict JSON validation of an event
//   GET  /items/:id   one PostgreSQL read through a small pool
//
// The bench sets PEAKLOAD_ADDR, PEAKLOAD_POSTGRES_URL, PG_POOL,
// EMPTY_BYTES and NODE_ENV=production (how Express is deployed: its
// error pages then carry no stack trace).
const express = require('express');
const { itemQuery, itemResponse, MAX_ID } = require('../lib/catalog.js');
const ev = require('../lib/event.js');
// The address, the empty route's body and the "Connection Pool nghiêm ngặt"
// (PG_POOL): read as d-elysia reads them, in lib/d-env.js.
const { host, port, emptyBody, pool } = require('../lib/d-env.js').dEnv('express', '127.0.0.1:18540');

const app = express();
// Express's defaults are kept (X-Powered-By, a weak ETag hashed over every
// res.send body): they are part of what "Express" costs in the article.

app.get('/healthz', (req, res) => {
  res.json({ status: 'ok', server: 'step 9 — express (original, Node ' + process.version + ')' });
});

app.get('/empty', (req, res) => {
  res.type('application/json').send(emptyBody);
});

// express.json() parses the body, capped as the Go servers cap theirs. What
// it refuses (malformed JSON: 400, too large: 413) Express's own error
// handler answers, as an HTML page: that is Express's answer to bad input.
// Express has no schema validation of its own — the article names Joi and
// Zod as Node's usual ones; without a dependency, validate() does their job.
app.post('/validate', express.json({ limit: ev.BODY_LIMIT }), (req, res) => {
  const problem = validate(req.body);
  if (problem) {
    res.status(400).json({ error: problem });
    return;
  }
  res.json({ ok: true });
});

// validate returns what is wrong with an event, as the Go servers word it
// (internal/given/tracking), or '' if nothing is.
function validate(body) {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    return 'body: want a JSON object';
  }
  for (const k of Object.keys(body)) {
    if (k !== 'event_name' && k !== 'data' && k !== 'timestamp') {
      return `${k}: is not a known field (want event_name, data, timestamp)`;
    }
  }
  const { event_name: name, data, timestamp } = body;
  if (name === undefined || name === '') return 'event_name: is required';
  if (typeof name !== 'string') return 'event_name: must be a string';
  if (Buffer.byteLength(name) > ev.MAX_NAME_LEN) return `event_name: is longer than ${ev.MAX_NAME_LEN} bytes`;
  if (!new RegExp(ev.NAME_PATTERN).test(name)) return "event_name: may hold only letters, digits, '_', '-' and '.'";
  if (data === undefined || data === null) return 'data: is required (a JSON object)';
  if (typeof data !== 'object' || Array.isArray(data)) return 'data: must be a JSON object';
  if (Buffer.byteLength(JSON.stringify(data)) > ev.MAX_DATA_SIZE) return `data: is larger than ${ev.MAX_DATA_SIZE} bytes`;
  if (timestamp === undefined || timestamp === 0) return 'timestamp: is required (unix seconds)';
  if (!Number.isInteger(timestamp)) return 'timestamp: must be an integer';
  if (timestamp < ev.EARLIEST || timestamp > ev.latest()) {
    return 'timestamp: must be unix seconds between 2000-01-01 and now+24h';
  }
  return '';
}

// Express 5 passes a rejected promise to its error handler, so the handler
// may be async; a database fault is logged and answered 500 in JSON.
app.get('/items/:id', async (req, res) => {
  const id = req.params.id;
  if (!/^[0-9]+$/.test(id) || Number(id) < 1 || Number(id) > MAX_ID) {
    res.status(400).json({ error: `invalid item id ${JSON.stringify(id)}: want a positive integer` });
    return;
  }
  let rows;
  try {
    ({ rows } = await pool.query(itemQuery(Number(id))));
  } catch (err) {
    console.error(`express GET /items/${id}:`, err.message);
    res.status(500).json({ error: 'internal server error' });
    return;
  }
  if (rows.length === 0) {
    res.status(404).json({ error: `item ${Number(id)}: not found` });
    return;
  }
  res.json(itemResponse(rows[0]));
});

// Listen on the loopback address the bench gives, never on every interface.
const server = app.listen(port, host, () => {
  console.log(`step 9 — express (Node ${process.version}) listening on http://${host}:${port} (PostgreSQL pool ${pool.options.max})`);
});
// Kept-alive connections idle as long as the Go servers let them
// (server.IdleTimeout, 2 min): Node's own 5 s would close a client's
// connection between two requests 5 s apart, as the bench's are.
server.keepAliveTimeout = 120_000;
server.on('error', (err) => {
  console.error('express: listen:', err.message);
  process.exit(1);
});

// Graceful shutdown: stop accepting, let in-flight requests finish (idle
// keep-alive connections are closed at once), then close the pool, exit 0.
function shutdown(signal) {
  console.log(`express: ${signal}, shutting down`);
  const force = setTimeout(() => server.closeAllConnections(), 5000).unref();
  server.close(async () => {
    clearTimeout(force);
    await pool.end();
    console.log('step 9 — express stopped cleanly');
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
