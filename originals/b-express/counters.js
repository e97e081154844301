'use strict';
// Article B's counters on their own stack: Express 5 and the MongoDB Node
// driver, the four ways step 7's Go server counts likes, written afresh
// from the method of the author's express-counter.js as docs/articles.md
// gives it (B9: $inc with upsert, ids uniform over 0–999, batches of 5000
// or 1000 ms, bulkWrite ordered:false for plain bulk, reduce (countBy) then
// an ordered bulkWrite). The article itself stops before counters (its
// part 2, "Chuyện anh thợ xây P2: batch operation", is only announced):
// what is measured here is the repo's method, and B9 is ours.
//
// Routes (the same as steps/07-counters/main.go):
//   POST /counters/sync/:id    $inc now, answer when MongoDB has it   201
//   POST /counters/async/:id   $inc started, not awaited              202
//   POST /counters/bulk/:id    queued; a batch = one $inc per event    202
//   POST /counters/reduce/:id  queued; a batch = one $inc per id       202
//   GET  /healthz              200 once MongoDB answers
//
// Measuring, not the author's: every $inc also adds 1 to the counter's
// `writes` field, in the same statement, so MongoDB itself counts the
// statements it applied (FerretDB's serverStatus counts commands, not the
// statements in them); and after each batch the server adds one to
// <collection>_flushes {_id: variant}: {batches, events, sizes: [...]}. The bench reads
// both there, never from this process.
// Express shows a stack trace to the client on an error outside
// production; its answers stay its own, without the trace.
process.env.NODE_ENV ||= 'production';
const express = require('express');
const { MongoClient } = require('mongodb');
const { graceful } = require('./serve');

const [host, port] = splitAddr(process.env.PEAKLOAD_ADDR || '127.0.0.1:18530');
const mongoURL = process.env.PEAKLOAD_MONGO_URL || 'mongodb://127.0.0.1:17017/';
// express-counter.js's default batch is 5000 events (its .env.example
// says 3000); a batch waits at most 1000 ms, as in the repo's bulk.js.
const batchSize = positiveInt('BATCH_SIZE', 5000);
const batchMs = positiveInt('BATCH_INTERVAL_MS', 1000);
const prefix = process.env.COUNTERS_COLLECTION || 'counters_express';

// The article's connection: "maxPoolSize: 100", one pool for the process.
const client = new MongoClient(mongoURL, { maxPoolSize: 100 });
const db = client.db('workshop');
const coll = (variant) => db.collection(`${prefix}_${variant}`);
const flushes = db.collection(`${prefix}_flushes`);

// incBy is the repo's counter write, $inc with upsert: one statement,
// alone (updateOne) or in a bulkWrite (inc).
const incBy = (n) => ({ $inc: { value: n, writes: 1 } });
const inc = (id, n) => ({ updateOne: { filter: { _id: id }, update: incBy(n), upsert: true } });
// Two upserts of a new id that race both try to insert it; one gets a
// duplicate key error (E11000). MongoDB 4.2+ retries such an upsert on
// the server, so the author's code never sees it there; FerretDB does
// not, so the retry MongoDB would have made is made here, once.
const incOne = (variant, id) => coll(variant).updateOne({ _id: id }, incBy(1), { upsert: true })
  .catch((err) => {
    if (err.code !== 11000) throw err;
    return coll(variant).updateOne({ _id: id }, incBy(1), { upsert: true });
  });

// The step's Go server refuses the same ids (internal/given/events: 1–64 of
// these characters) so that both stacks store the same counters; Express
// itself would take any path segment.
const validID = /^[A-Za-z0-9_.-]{1,64}$/;

// A batcher as the repo's bulk.js runs one: events wait in memory
// until batchSize of them or batchMs have passed, then one write takes
// the batch; flushes are not awaited by the requests, so several may be
// in flight. A failed batch is logged and lost, as the author's is (no
// retry): the bench's persisted == accepted shows whether any was.
function batcher(variant, write) {
  let queue = [];
  let timer = null;
  const inFlight = new Set();
  const flush = () => {
    clearTimeout(timer);
    timer = null;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    // On FerretDB only, a flush waits for the one before it: flushes in
    // flight together exhaust FerretDB 1.24's connection pool under
    // concurrent updates and wedge it until it restarts (step 7's README).
    // MongoDB takes the author's flushes as they come, not awaited.
    const previous = ferret ? Promise.all(inFlight) : Promise.resolve();
    const p = previous.then(() => write(batch))
      .then(() => flushes.updateOne({ _id: variant }, { $inc: { batches: 1, events: batch.length }, $push: { sizes: batch.length } }, { upsert: true }))
      .catch((err) => console.error(`${variant}: a batch of ${batch.length} events is lost: ${err.message}`))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  return {
    add(id) {
      queue.push(id);
      if (queue.length >= batchSize) flush();
      else if (timer === null) timer = setTimeout(flush, batchMs);
    },
    // drain writes what waits and waits for every flush: SIGTERM's part.
    async drain() {
      flush();
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}

// bulk: the batch as it came, one $inc per event, unordered (the repo's
// plain bulk: "bulkWrite ordered:false").
const bulk = batcher('bulk', (ids) => write('bulk', ids.map((id) => [id, 1]), false));

// reduce: count per id first (the repo's countBy), then one $inc of the
// count per distinct id, in an ordered bulkWrite as the repo writes it.
const reduce = batcher('reduce', (ids) => {
  const counts = new Map();
  for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
  return write('reduce', [...counts], true);
});

// write sends [id, n] increments as one bulkWrite, as the repo does, on
// MongoDB. FerretDB 1.24 (the workshop's MongoDB when no mongod is
// installed) stalls for minutes, and wedges later writes, on an update
// command that touches one document several times (measured: a batch of
// 1500 likes over 100 streams). There the increments go as the Go server
// sends them (internal/given/events IncMany): in rounds in which each id
// appears once, 100 statements per command. The statements are the same,
// one per increment; only the round trips differ.
let ferret = false;
async function write(variant, incs, ordered) {
  if (!ferret) return coll(variant).bulkWrite(incs.map(([id, n]) => inc(id, n)), { ordered });
  const rounds = [];
  const seen = new Map();
  for (const [id, n] of incs) {
    const r = seen.get(id) || 0;
    seen.set(id, r + 1);
    (rounds[r] ||= []).push(inc(id, n));
  }
  for (const round of rounds) {
    for (let i = 0; i < round.length; i += 100) {
      await coll(variant).bulkWrite(round.slice(i, i + 100), { ordered });
    }
  }
}

// async: started, not awaited; its promises are kept only so that
// SIGTERM can wait for them.
const pending = new Set();
function incLater(id) {
  const p = incOne('async', id)
    .catch((err) => console.error(`async: increment of ${id} lost: ${err.message}`))
    .finally(() => pending.delete(p));
  pending.add(p);
}

const app = express();
app.disable('x-powered-by');
app.get('/healthz', (req, res) => res.json({ ok: true }));

// The counter routes carry no body; Express reads none unless a parser
// is mounted, so nothing unbounded is buffered.
app.post('/counters/:variant/:id', async (req, res, next) => {
  const { variant, id } = req.params;
  if (!validID.test(id)) return res.status(400).json({ error: "id: must be 1-64 letters, digits, '_', '-' or '.'" });
  switch (variant) {
    case 'sync':
      await incOne('sync', id); // a rejection goes to Express's error handler: 500
      return res.status(201).json({ ok: true });
    case 'async':
      incLater(id);
      break;
    case 'bulk':
      bulk.add(id);
      break;
    case 'reduce':
      reduce.add(id);
      break;
    default:
      return next(); // Express's 404
  }
  return res.status(202).json({ ok: true });
});

async function main() {
  await client.connect();
  ferret = 'ferretdbVersion' in (await db.admin().command({ serverStatus: 1 }));
  const server = app.listen(port, host, () => console.log(`counters (Express ${require('express/package.json').version}) on ${host}:${port}, batch ${batchSize} / ${batchMs} ms${ferret ? ', FerretDB: 100 per command, each id once' : ''}`));
  server.keepAliveTimeout = 65_000; // the driver keeps its connections; Node's default 5 s would cut them
  const stopServing = graceful(server);
  let stopping = false;
  const stop = async (sig) => {
    if (stopping) return;
    stopping = true;
    console.log(`${sig}: closing the listener, flushing the batches`);
    // Every request answered first: an increment accepted on a kept-alive
    // connection while the batches drained would be left in memory.
    await stopServing();
    // Graceful shutdown: no accepted increment stays in memory.
    await Promise.all([bulk.drain(), reduce.drain(), Promise.all(pending)]);
    await client.close();
    console.log('flushed; bye');
    process.exit(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

function splitAddr(addr) {
  const i = addr.lastIndexOf(':');
  return [addr.slice(0, i) || '127.0.0.1', Number(addr.slice(i + 1))];
}

function positiveInt(name, def) {
  const v = process.env[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name}=${v}: want a positive integer`);
  return n;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
