// Step 5 — burst cache: the ceiling, step 4's coalesced cache-aside, and the
// in-process burst cache in front of it, over the hot-skewed live streams.
//
//   make step-5 run        # in one terminal
//   k6 run k6/05-burst-cache.js
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, makeSkew, sequential } from './lib/common.js';
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const pick = makeSkew(params.catalog);

// What step 5 proves: Redis traffic ÷ ≥ 5, i.e. at least four reads in
// five served from the process's memory (the Redis bytes per request of
// each row are in the summary beside it).
export const options = sequential(params, ['empty-get', 'singleflight', 'burst'], 'burst', {
  properties: {
    singleflight: { server_redis_bytes_per_req: ['value>0'] },
    burst: { server_memory_hit_ratio: ['value>=0.8'], server_redis_bytes_per_req: ['value>=0'] },
  },
});
export { handleSummary, meter } from './lib/common.js';

export function empty_get() {
  const res = http.get(`${BASE_URL}${routes.Empty}`, { tags: { name: routes.GET(routes.Empty) } });
  check(res, { [`${routes.GET(routes.Empty)} 200`]: (r) => r.status === 200 });
}

export function singleflight() {
  const res = http.get(`${BASE_URL}${routes.path(routes.Coalesced, pick())}`, { tags: { name: routes.GET(routes.Coalesced) } });
  check(res, { [`${routes.GET(routes.Coalesced)} 200`]: (r) => r.status === 200 });
}

export function burst() {
  const res = http.get(`${BASE_URL}${routes.path(routes.Burst, pick())}`, { tags: { name: routes.GET(routes.Burst) } });
  check(res, { [`${routes.GET(routes.Burst)} 200`]: (r) => r.status === 200 });
}
