// Step 3 — ETag: short-polling clients. Each VU watches one stream (drawn by
// the skew), polls it every poll_s / scale seconds and sends back the ETag
// it last saw; the worker changes the streams every change_s / scale.
//
//   make step-3 run        # in one terminal
//   k6 run k6/03-etag.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { BASE_URL, makeSkew, pacedSleep, sequential } from './lib/common.js';
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const pick = makeSkew(params.catalog);
const POLL = params.clock.poll_s / params.clock.scale;
const VUS = parseInt(__ENV.VUS || params.load.vus, 10); // as lib/common.js reads it

// What step 3 proves: with four polls per change, about three in four
// polls are answered 304 (bodies ÷ ~4; A3's tolerance ÷ 3.5 is a 304 share
// of 0.71), and without the ETag none is.
export const options = sequential(params, ['cache-aside-poll', 'etag-poll'], 'etag-poll', {
  properties: {
    'cache-aside-poll': { server_304_share: ['value==0'] },
    'etag-poll': { server_304_share: ['value>=0.71'] },
  },
});
export { handleSummary, meter } from './lib/common.js';

// Per-VU memory (each VU has its own copy of this module): the stream it
// watches and the ETag it last saw, one pair per variant.
const clients = {};

function poll(variant, route) {
  const start = Date.now();
  let me = clients[variant];
  if (!me) {
    me = clients[variant] = { id: pick(), etag: '' };
    // Polling clients do not start in lockstep: spread the VUs' phases
    // over one period, as the Go driver does.
    sleep(POLL * ((__VU - 1) % VUS) / VUS);
  }
  const headers = me.etag ? { 'If-None-Match': me.etag } : {};
  const res = http.get(`${BASE_URL}${routes.path(route, me.id)}`, { headers, tags: { name: routes.GET(route) } });
  check(res, { '200 or 304': (r) => r.status === 200 || r.status === 304 });
  if (res.status === 200 && res.headers['Etag']) me.etag = res.headers['Etag'];
  pacedSleep(sleep, start, POLL);
}

export function cache_aside_poll() {
  poll('cache-aside-poll', routes.Cached);
}

export function etag_poll() {
  poll('etag-poll', routes.ETag);
}
