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

  const stopServing = graceful(server);
  let stopping = false;
  async function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    const t0 = Date.now();
    const since = () => `${Date.now() - t0} ms`;
    console.log(`${name}: ${signal}, flushing`);
    await stopServing();
    console.log(`${name}: every request answered, no connection left (${since()}); writing what was accepted`);
    try {
      await flush();
      console.log(`${name}: written (${since()}), closing the MongoDB client`);
      await mongo.close();
    } catch (err) {
      console.error(`${name}: shutdown: ${err.message}`);
      process.exit(1);
    }
    console.log(`${name}: stopped cleanly (${since()})`);
    process.exit(0);
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

// graceful counts the requests server is answering and returns its stop:
// stop accepting, let every request in flight have its answer, then close
// every connection left, and resolve when the last one is gone. Closing
// only the idle ones (closeIdleConnections) is not enough: a connection a
// client opened and has sent nothing on yet (Go's client dials spares and
// keeps them) counts as busy until Node's headersTimeout, 60 s, and held
// server.close() — and the flush after it — that long.
function graceful(server) {
  let answering = 0;
  let stopping = false;
  server.on('request', (req, res) => {
    answering++;
    res.on('close', () => {
      answering--;
      if (stopping && answering === 0) server.closeAllConnections();
    });
  });
  return function stop() {
    stopping = true;
    const closed = new Promise((done) => server.close(done));
    if (answering === 0) server.closeAllConnections();
    else server.closeIdleConnections();
    return closed;
  };
}

// isEvent is our one rule on both frameworks: an event is a JSON object.
// The body parsers let through an array (and Express, without a JSON
// Content-Type, no body at all); insertOne would refuse it, and in a buffer
// it would fail the batch it rides in. The routes answer it 400.
function isEvent(body) {
  return body !== null && typeof body === 'object' && !Array.isArray(body);
}

module.exports = { listen, graceful, isEvent };
