// Step 4 — singleflight: a stampede. Every VU reads the most watched stream,
// whose Redis key expires every redis_ttl_s / scale seconds.
//
//   make step-4 run        # in one terminal
//   k6 run k6/04-singleflight.js
import { getOK, liveID, sequential } from './lib/common.js';
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const TOP = liveID(params.catalog, 0);

const TTL = params.clock.redis_ttl_s / params.clock.scale;

// What step 4 proves: one query per key expiry (A4's tolerance: ≤ 1.5),
// i.e. at most 1.5 ÷ TTL queries per second on the one hot key.
export const options = sequential(params, ['cache-aside', 'singleflight'], 'singleflight', {
  properties: { singleflight: { server_db_queries_per_s: [`value<=${1.5 / TTL}`] } },
});
export { handleSummary, meter } from './lib/common.js';

export function cache_aside() { getOK(routes.Cached, TOP); }
export function singleflight() { getOK(routes.Coalesced, TOP); }
