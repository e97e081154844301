// How article B's servers (Express, Koa) start and stop. The article's own
// order — "mongoClient.connect(...) ... app.listen(PORT)" — connect first,
// then listen; and the workshop's rule the author's code did not have: on
// SIGTERM or SIGINT stop listening, let the requests in flight finish,
// write what was accepted (flush), close the client, exit 0.
'use strict';

const http = require('node:http');

// listen connects mongo, then serves handler on PEAKLOAD_ADDR (loopback,
// the bench's free port); flush is awaited on a graceful stop.
function listen(name, handler, mongo, flush) {
  const addr = process.env.PEAKLOAD_ADDR || '127.0.0.1:8080';
  const i = addr.lastIndexOf(':');
  const host = addr.slice(0, i), port = Number(addr.slice(i + 1));
  const server = http.createServer(handler);
  mongo.connect().then(() => {
    server.listen(port, host, () => console.log(`${name} listening on http://${addr}`));
  }, (err) => {
    console.error(`${name}: MongoDB at ${process.env.PEAKLOAD_MONGO_URL} does not answer: ${err.message}`);
    process.exit(1);
  });

  let stopping = false;
  async function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    console.log(`${name}: ${signal}, flushing`);
    const closed = new Promise((done) => server.close(done)); // resolves when the last connection is gone
    server.closeIdleConnections();
    await closed;
    console.log(`${name}: no connection left, writing what was accepted`);
    try {
      await flush();
      await mongo.close();
    } catch (err) {
      console.error(`${name}: shutdown: ${err.message}`);
      process.exit(1);
    }
    process.exit(0);
  }
  // A keep-alive connection would hold server.close() open for as long as
  // its client keeps it: once stopping, close each after its response.
  server.on('request', (req, res) => res.on('finish', () => { if (stopping) req.socket.end(); }));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

// isEvent is our one rule on both frameworks: an event is a JSON object.
// The body parsers let through an array (and Express, without a JSON
// Content-Type, no body at all); insertOne would refuse it, and in a buffer
// it would fail the batch it rides in. The routes answer it 400.
function isEvent(body) {
  return body !== null && typeof body === 'object' && !Array.isArray(body);
}

module.exports = { listen, isEvent };
