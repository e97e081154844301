'use strict';
// What both of article D's originals (d-express on Node, d-elysia on Bun)
// read at start-up, written once so the bench compares the stacks and
// nothing else: the address, the empty route's body and the PostgreSQL pool.
// The bench sets PEAKLOAD_ADDR, PEAKLOAD_POSTGRES_URL, PG_POOL and
// EMPTY_BYTES (make step-9 bench ORIGINAL=1).
const pg = require('pg');
const { PG_OPTIONS, useGoTypes } = require('./catalog.js');

// dEnv reads the environment for the server called name (it prefixes its
// messages), listening on defaultAddr unless PEAKLOAD_ADDR says otherwise.
function dEnv(name, defaultAddr) {
  const required = (v) => {
    if (!process.env[v]) {
      console.error(`${name}: ${v} is not set (the bench sets it: make step-9 bench ORIGINAL=1)`);
      process.exit(2);
    }
    return process.env[v];
  };
  const addr = process.env.PEAKLOAD_ADDR || defaultAddr;
  const i = addr.lastIndexOf(':');
  // The empty route's body is as long as the Go servers' (an item's JSON,
  // EMPTY_BYTES of it), written once: the route does no work but move bytes.
  const emptyBody = JSON.stringify({ empty: 'x'.repeat(Number(required('EMPTY_BYTES')) - '{"empty":""}'.length) });
  // "Mọi kết nối đến Database (PostgreSQL) ... đều được cấu hình dưới dạng
  // Connection Pool nghiêm ngặt, giới hạn số lượng kết nối phù hợp với khả năng
  // xử lý của 1 vCPU": the pool step 9's Go frameworks use (PG_POOL).
  useGoTypes(pg);
  const pool = new pg.Pool({
    connectionString: required('PEAKLOAD_POSTGRES_URL'),
    max: Number(process.env.PG_POOL || 4),
    options: PG_OPTIONS,
  });
  pool.on('error', (err) => console.error(`${name}: idle PostgreSQL client:`, err.message));
  return { host: addr.slice(0, i), port: Number(addr.slice(i + 1)), emptyBody, pool };
}

module.exports = { dEnv };
