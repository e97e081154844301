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
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const EVENT = JSON.stringify(params.event);
if (!__ENV.VUS) params.load.vus = 100; // article B's concurrency

// A 503 with Retry-After is the server's backpressure, expected: not a
// failed request (the check and the sleep below honour it).
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 503));

// What step 6 proves where k6 can see it: bulk writes a batch per round
// trip (claim B8-batch, ours, on the method of the author's bulk.js: one
// insertMany per 1000 events or per second). Each
// write variant settles (persisted == accepted) before the next starts.
export const options = sequential(params, ['empty-post', 'sync', 'async', 'group', 'bulk'], 'bulk', {
  settle: ['sync', 'async', 'group', 'bulk'],
  properties: { bulk: { server_db_round_trips_per_req: ['value<0.01'] } },
});
export { handleSummary, meter, settle } from './lib/common.js';

function send(path) {
  const res = http.post(`${BASE_URL}${path}`, EVENT, Object.assign({ tags: { name: `POST ${path}` } }, JSON_HEADERS));
  if (res.status === 503) { // expected: wait as told, like the Go driver
    sleep(parseInt(res.headers['Retry-After'] || '1', 10));
    return;
  }
  check(res, { [`POST ${path} 2xx`]: (r) => r.status >= 200 && r.status < 300 });
  return res;
}

export function empty_post() { send(routes.Empty); }
export function sync() { send(routes.EventsSync); }
export function async() { send(routes.EventsAsync); }
export function group() { send(routes.EventsGroup); }
export function bulk() { send(routes.EventsBulk); }
