// Step 5 — burst cache: the ceiling, step 4's coalesced cache-aside, and the
// in-process burst cache in front of it, over the hot-skewed live streams.
//
//   make step-5 run        # in one terminal
//   k6 run k6/05-burst-cache.js
import { getOK, makeSkew, sequential } from './lib/common.js';
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

export function empty_get() { getOK(routes.Empty); }
export function singleflight() { getOK(routes.Coalesced, pick()); }
export function burst() { getOK(routes.Burst, pick()); }
