// Article B ("Chuyện anh thợ xây P1: BUILD a write-heavy application") on
// its own stack: Express on Node with the MongoDB Node driver. Written
// afresh from the article's text and the author's README; each choice says
// which sentence it follows. Steps 0 and 6 of the workshop measure it beside
// the Go server (`make step-6 bench ORIGINAL=1`), on the same CPU, against
// the same MongoDB, with the same requests.
//
// Routes, the Go step server's paths (internal/given/routes, steps/06-buffered-writes):
//   GET  /empty          scenario 1, "Framework overhead": nothing but Express
//   POST /empty          scenario 2, "client network và khả năng parse request": parse, answer
//   POST /events/sync    insert_sync: await insertOne, then answer
//   POST /events/async   insert_async: insertOne not awaited, answer at once
//   POST /events/group   insert_group: buffer, then insertOne 100 at a time (Promise.all)
//   POST /events/bulk    the README's bulk: one insertMany per 1000 events or 1000 ms
//   GET  /healthz        the bench's readiness probe
'use strict';

const express = require('express');
const { MongoClient } = require('mongodb');
const { Batcher, Group, InFlight } = require('./writes');
const { listen, isEvent } = require('./serve');

// "new MongoClient(MONGO_URI, { ..., maxPoolSize: 100 })": the article's
// own client options (useUnifiedTopology is the default since driver 4).
const mongo = new MongoClient(process.env.PEAKLOAD_MONGO_URL || 'mongodb://127.0.0.1:17017/', { maxPoolSize: 100 });
// The Go server's database and collection (internal/given/events.Open), so the
// bench counts both stacks' events in one place; a test names its own.
const events = mongo.db('workshop').collection(process.env.PEAKLOAD_EVENTS || 'events');

const app = express();
// "app.use(bodyParser.json())": Express 5 ships it as express.json(). Its
// 100 kB default limit bounds a body (413 past it); malformed JSON is its
// 400. Both answers are Express's, as the author's server gave them.
app.use(express.json());

// The author's handlers answer "Ok" (res.send('Ok')); the empty GET does
// the same, so scenario 1 differs from scenario 2 by the body alone.
app.get('/healthz', (req, res) => res.send('Ok'));
app.get('/empty', (req, res) => res.send('Ok'));
app.post('/empty', (req, res) => res.send('Ok'));

// The author stores req.body as it came; our one rule (serve.js: isEvent)
// answers 400 what is not a JSON object.
function event(req, res) {
  const body = req.body;
  if (!isEvent(body)) {
    res.status(400).send('the body must be a JSON object');
    return null;
  }
  return body;
}

// insert_sync: "await db.collection('logs').insertOne(body); res.send('Ok')".
// Express 5 answers a rejected handler with 500 itself.
app.post('/events/sync', async (req, res) => {
  const body = event(req, res);
  if (!body) return;
  await events.insertOne(body);
  res.send('Ok');
});

// insert_async: "db.collection('logs').insertOne(body); res.send('Ok')" —
// not awaited. InFlight keeps the promise so SIGTERM can wait for it and a
// failure is logged rather than crashing the process (unhandled rejection).
const async = new InFlight('async');
app.post('/events/async', (req, res) => {
  const body = event(req, res);
  if (!body) return;
  async.track(events.insertOne(body));
  res.send('Ok');
});

// insert_group: "nhận request, insert data vào 1 mảng ... 100k câu lệnh
// insert được chạy tuần tự 100 câu một" (writes.js says why it does not
// wait for 100 000 here).
const group = new Group((doc) => events.insertOne(doc), 100);
app.post('/events/group', (req, res) => {
  const body = event(req, res);
  if (!body) return;
  group.add(body);
  res.send('Ok');
});

// The README's bulk: 1000 events or 1000 ms, one insertMany each, flushes
// not awaited.
const bulk = new Batcher((docs) => events.insertMany(docs), 1000, 1000);
app.post('/events/bulk', (req, res) => {
  const body = event(req, res);
  if (!body) return;
  bulk.add(body);
  res.send('Ok');
});

// Connect, then listen; SIGTERM flushes every buffer first (serve.js).
listen('b-express', app, mongo, () => Promise.all([async.wait(), group.close(), bulk.close()]));
