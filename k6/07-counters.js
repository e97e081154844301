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
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const pick = makeSkew(params.catalog);
if (!__ENV.VUS) params.load.vus = 100; // article B's concurrency

// A 503 with Retry-After is the server's backpressure, expected: not a
// failed request (the sleep below honours it).
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 503));

// What step 7 proves: bulk writes once per like, reduce once per distinct
// id per flush: about a tenth of bulk's writes on this skew (B9 judges
// bulk ÷ reduce within 0.8–1.2× of batch size ÷ expected distinct ids;
// this script only asks reduce for ≤ 0.1 writes per like). The
// meter counts writes inside the window, where flushes lag a little behind
// the likes; the bench counts them until everything is applied. Every
// variant settles before the next.
export const options = sequential(params, ['sync', 'async', 'bulk', 'reduce'], 'reduce', {
  settle: ['sync', 'async', 'bulk', 'reduce'],
  properties: { reduce: { server_db_writes_per_req: ['value<=0.1'] } },
});
export { handleSummary, meter, settle } from './lib/common.js';

function like(route) {
  const res = http.post(`${BASE_URL}${routes.path(route, `likes-${pick()}`)}`, null, { tags: { name: routes.POST(route) } });
  if (res.status === 503) {
    sleep(parseInt(res.headers['Retry-After'] || '1', 10));
    return;
  }
  check(res, { [`${routes.POST(route)} 2xx`]: (r) => r.status >= 200 && r.status < 300 });
}

export function sync() { like(routes.CountersSync); }
export function async() { like(routes.CountersAsync); }
export function bulk() { like(routes.CountersBulk); }
export function reduce() { like(routes.CountersReduce); }
