// The buffers of article B's write routes, shared by the Express and Koa
// servers as the author's repository shares its bulk batcher between them.
// Each keeps what SIGTERM must wait for: nothing accepted is dropped on a
// graceful stop (the workshop's rule; the author's code had no shutdown).
'use strict';

// InFlight holds writes nobody awaits (insert_async, bulk's flushes): a
// failure is logged and counted, not an unhandled rejection that would kill
// the process, and wait() resolves when every one has settled.
class InFlight {
  constructor(name) {
    this.name = name;
    this.pending = new Set();
    this.failed = 0;
  }

  track(promise) {
    const p = promise.catch((err) => {
      this.failed++;
      console.error(`${this.name}: write failed: ${err.message}`);
    }).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async wait() {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}

// Group is insert_group. The article: "nhận request, insert data vào 1 mảng.
// Cho tới khi toàn bộ 100k request được thực hiện xong thì bắt đầu chạy
// insert 100k bản ghi đó vào DB với 100k câu lệnh insert được chạy tuần tự
// 100 câu một" — one insertOne per event, `concurrency` at a time
// (Promise.all), "100 command, dùng 100 connection", not one bulk command.
// The author's trigger, the 100 000th event, fits k6's fixed 100k
// iterations; our bench runs for a time, so the writer starts as soon as
// there is something to write and takes what accumulated meanwhile (up to
// `max`, the Go server's group: internal/given/writes.Group).
class Group {
  constructor(insertOne, concurrency, max = 1000) {
    this.insertOne = insertOne;
    this.concurrency = concurrency;
    this.max = max;
    this.items = [];
    this.writing = null; // the writer's promise while it runs
    this.failed = 0;
  }

  add(doc) {
    this.items.push(doc);
    if (!this.writing) this.writing = this.drain().finally(() => { this.writing = null; });
  }

  async drain() {
    while (this.items.length > 0) {
      const batch = this.items.splice(0, this.max);
      for (let i = 0; i < batch.length; i += this.concurrency) {
        const chunk = batch.slice(i, i + this.concurrency).map((doc) => this.insertOne(doc));
        for (const r of await Promise.allSettled(chunk)) {
          if (r.status === 'rejected') {
            this.failed++;
            console.error(`group: insert failed: ${r.reason.message}`);
          }
        }
      }
    }
  }

  async close() {
    while (this.writing) await this.writing;
  }
}

// Batcher is the repository's bulk.js: one insertMany per `size` events or
// per `intervalMs` (lodash throttle in the author's code), whichever comes
// first. As there, a flush is not awaited (bulk.js's push calls the
// throttled flush and returns), so several may be in flight: the handler
// answers at once and the next batch fills while the last is written.
// insertMany is ordered, the driver's default.
class Batcher {
  constructor(insertMany, size, intervalMs) {
    this.insertMany = insertMany;
    this.size = size;
    this.intervalMs = intervalMs;
    this.items = [];
    this.timer = null;
    this.flushes = new InFlight('bulk');
  }

  add(doc) {
    this.items.push(doc);
    if (this.items.length >= this.size) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), this.intervalMs);
  }

  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.items.length === 0) return;
    const docs = this.items;
    this.items = [];
    this.flushes.track(this.insertMany(docs));
  }

  // close writes the partial batch now and waits for every flush in flight.
  async close() {
    this.flush();
    await this.flushes.wait();
  }
}

module.exports = { InFlight, Group, Batcher };
