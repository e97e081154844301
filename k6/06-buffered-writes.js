// Step 6 — buffered writes: the empty-POST ceiling, then the four ways to
// store the event: sync, async, group and bulk. 100 VUs, as article B.
// (The raw-insert baselines have no HTTP: only `make step-6 bench` runs them.)
// A 503 is the server's backpressure: like the Go driver, wait Retry-After.
//
//   make step-6 run        # in one terminal (starts MongoDB / FerretDB)
//   k6 run -e VUS=100 k6/06-buffered-writes.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { BASE_URL, JSON_HEADERS, sequential } from './lib/common.js';

const params = JSON.parse(open('./lib/params.json'));
const EVENT = JSON.stringify(params.event);
if (!__ENV.VUS) params.load.vus = 100; // article B's concurrency

export const options = sequential(params, ['empty-post', 'sync', 'async', 'group', 'bulk'], 'bulk');

function send(path) {
  const res = http.post(`${BASE_URL}${path}`, EVENT, Object.assign({ tags: { name: `POST ${path}` } }, JSON_HEADERS));
  if (res.status === 503) {
    sleep(parseInt(res.headers['Retry-After'] || '1', 10));
    return;
  }
  check(res, { [`POST ${path} 2xx`]: (r) => r.status >= 200 && r.status < 300 });
}

export function empty_post() { send('/empty'); }
export function sync() { send('/events/sync'); }
export function async() { send('/events/async'); }
export function group() { send('/events/group'); }
export function bulk() { send('/events/bulk'); }
