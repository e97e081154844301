// Step 7 — counters: likes on the live streams, hot-skewed, through each
// variant: sync, async, bulk (one $inc per request, batched) and reduce
// (one $inc per distinct id per batch). 100 VUs, as article B.
// A 503 is the server's backpressure: wait Retry-After, as the Go driver does.
//
//   make step-7 run        # in one terminal
//   k6 run -e VUS=100 k6/07-counters.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { BASE_URL, makeSkew, sequential } from './lib/common.js';

const params = JSON.parse(open('./lib/params.json'));
const pick = makeSkew(params.catalog);
if (!__ENV.VUS) params.load.vus = 100; // article B's concurrency

export const options = sequential(params, ['sync', 'async', 'bulk', 'reduce'], 'reduce');

function like(variant) {
  const res = http.post(`${BASE_URL}/counters/${variant}/likes-${pick()}`, null, { tags: { name: `POST /counters/${variant}/:id` } });
  if (res.status === 503) {
    sleep(parseInt(res.headers['Retry-After'] || '1', 10));
    return;
  }
  check(res, { [`POST /counters/${variant} 2xx`]: (r) => r.status >= 200 && r.status < 300 });
}

export function sync() { like('sync'); }
export function async() { like('async'); }
export function bulk() { like('bulk'); }
export function reduce() { like('reduce'); }
