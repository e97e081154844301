// Article B's server on Koa: the author's repository measures its routes on
// Express and again on Koa (README "Test Result", rows 10–15), the same
// handlers on a lighter framework. Same routes, same MongoDB client, same
// buffers as originals/b-express/server.js; only the framework differs.
//
//   GET  /empty, POST /empty, POST /events/{sync,async,group,bulk}, GET /healthz
'use strict';

const Koa = require('koa');
const Router = require('@koa/router');
const { MongoClient } = require('mongodb');
const { Batcher, Group, InFlight } = require('../b-express/writes');
const { listen, isEvent } = require('../b-express/serve');

// The article's client options: "maxPoolSize: 100".
const mongo = new MongoClient(process.env.PEAKLOAD_MONGO_URL || 'mongodb://127.0.0.1:17017/', { maxPoolSize: 100 });
// The Go server's database and collection (internal/given/events.Open), so the
// bench counts both stacks' events in one place; a test names its own.
const events = mongo.db('workshop').collection(process.env.PEAKLOAD_EVENTS || 'events');

// Koa has no body parser of its own, and the lockfile pins none (the
// originals add no npm package for it): json() reads the body as
// express.json() does — at most 100 kB (413 past it), JSON.parse, 400 when
// it is not JSON — so the two frameworks parse the same bytes the same way.
const limit = 100 * 1024;
async function json(ctx, next) {
  if (ctx.method !== 'POST') return next();
  const chunks = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += chunk.length;
    if (size > limit) ctx.throw(413, 'request entity too large');
    chunks.push(chunk);
  }
  try {
    ctx.request.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    ctx.throw(400, 'invalid JSON');
  }
  return next();
}

// Our one rule, as on Express (b-express/serve.js: isEvent): 400 for a body
// that is not a JSON object.
function event(ctx) {
  const body = ctx.request.body;
  if (!isEvent(body)) ctx.throw(400, 'the body must be a JSON object');
  return body;
}

const router = new Router();
router.get('/healthz', (ctx) => { ctx.body = 'Ok'; });
router.get('/empty', (ctx) => { ctx.body = 'Ok'; });
router.post('/empty', (ctx) => { ctx.body = 'Ok'; });

// insert_sync: await insertOne, then answer. Koa answers a rejection 500.
router.post('/events/sync', async (ctx) => {
  await events.insertOne(event(ctx));
  ctx.body = 'Ok';
});

// insert_async: insertOne not awaited; InFlight keeps it for SIGTERM.
const async = new InFlight('async');
router.post('/events/async', (ctx) => {
  async.track(events.insertOne(event(ctx)));
  ctx.body = 'Ok';
});

// insert_group: buffered, then insertOne 100 at a time (writes.js: Group).
const group = new Group((doc) => events.insertOne(doc), 100);
router.post('/events/group', (ctx) => {
  group.add(event(ctx));
  ctx.body = 'Ok';
});

// bulk: one insertMany per 1000 events or 1000 ms, flushes not awaited.
const bulk = new Batcher((docs) => events.insertMany(docs), 1000, 1000);
router.post('/events/bulk', (ctx) => {
  bulk.add(event(ctx));
  ctx.body = 'Ok';
});

const app = new Koa();
app.use(json);
app.use(router.routes());
app.use(router.allowedMethods());

// Connect, then listen; SIGTERM flushes every buffer first (b-express/serve.js).
listen('b-koa', app.callback(), mongo, () => Promise.all([async.wait(), group.close(), bulk.close()]));
