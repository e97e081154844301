// Article B's raw inserts on its own stack: the MongoDB Node driver with no
// HTTP in front, the baselines of its table (scenarios 3 and 4):
//   "Kịch bản 3 được dùng để đánh giá khả năng thực hiện command tuần tự của
//    library (mongodb driver)" — RAW_CONCURRENCY=1, one insertOne after another;
//   "trigger 100 async command rồi dùng Promise.all để chờ 100 command này
//    hoàn thành mới tiếp tục" — RAW_CONCURRENCY=100.
// The article's finding is the ratio: 100 at a time was "chỉ tăng khoảng 3
// lần", because "chúng ta đã chạm tới giới hạn xử lý về CPU của library".
// The bench (step 6, ORIGINAL=1) runs this script pinned to the step
// server's CPU — the article's "1 process node duy nhất" — for a time, not
// for 100 000 inserts, and reads the two JSON lines it prints: {"phase":"start"}
// when the timed window opens, then the result.
//
// Environment: PEAKLOAD_MONGO_URL, RAW_CONCURRENCY (1 or 100), RAW_DURATION_S,
// RAW_WARMUP_S, RAW_EVENT (the event JSON the write routes are sent).
'use strict';

const { MongoClient } = require('mongodb');

const concurrency = Number(process.env.RAW_CONCURRENCY || 1);
const durationMs = 1000 * Number(process.env.RAW_DURATION_S || 10);
const warmupMs = 1000 * Number(process.env.RAW_WARMUP_S || 0);
const event = JSON.parse(process.env.RAW_EVENT || '{"event_name":"click","data":{},"timestamp":1632404556}');

async function main() {
  // The article's client: "maxPoolSize: 100", one connection per command in flight.
  const mongo = new MongoClient(process.env.PEAKLOAD_MONGO_URL || 'mongodb://127.0.0.1:17017/', { maxPoolSize: 100 });
  await mongo.connect();
  // The Go server's database and collection (internal/given/events.Open), so the
  // bench counts both stacks' events in one place; a test names its own.
  const events = mongo.db('workshop').collection(process.env.PEAKLOAD_EVENTS || 'events');
  const latencies = [];
  let errors = 0;
  let firstError = '';

  // One round: `concurrency` insertOne started together, awaited together.
  // insertOne adds an _id to the object it is given: each gets its own copy.
  async function round(record) {
    const started = [];
    for (let i = 0; i < concurrency; i++) {
      const t0 = process.hrtime.bigint();
      started.push(events.insertOne({ ...event }).then(
        () => record && latencies.push(Number(process.hrtime.bigint() - t0) / 1e6),
        (err) => {
          if (!record) return;
          errors++;
          firstError = firstError || err.message;
        }));
    }
    await Promise.all(started);
  }

  for (const end = Date.now() + warmupMs; Date.now() < end;) await round(false);
  // The bench reads the database's CPU from here: the warm-up is not counted.
  console.log(JSON.stringify({ phase: 'start' }));
  const start = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - start) / 1e9;
  while (seconds() * 1000 < durationMs) await round(true);
  const elapsed = seconds();
  await mongo.close();

  latencies.sort((a, b) => a - b);
  const at = (q) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0;
  const mean = latencies.reduce((s, x) => s + x, 0) / (latencies.length || 1);
  console.log(JSON.stringify({
    concurrency, inserts: latencies.length, errors, seconds: elapsed, first_error: firstError,
    latency_ms: { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1), mean },
  }));
}

main().catch((err) => {
  console.error(`raw-insert: ${err.message}`);
  process.exit(1);
});
