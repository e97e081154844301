// Step 2 — cache-aside: the ceiling, the direct read and the Redis
// get-or-set read of the same hot-skewed ids.
//
//   make step-2 run        # in one terminal (PostgreSQL, Redis, the worker)
//   k6 run k6/02-cache-aside.js
import { getOK, makeSkew, sequential } from './lib/common.js';
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const pick = makeSkew(params.catalog);

// What step 2 proves, seen from the server: a hit costs no query.
export const options = sequential(params, ['empty-get', 'direct-db', 'cache-aside'], 'cache-aside', {
  properties: {
    'direct-db': { server_db_queries_per_req: ['value>=0.95', 'value<=1.05'] },
    'cache-aside': { server_db_queries_per_req: ['value<0.05'] },
  },
});
export { handleSummary, meter } from './lib/common.js';

export function empty_get() { getOK(routes.Empty); }
export function direct_db() { getOK(routes.Items, pick()); }
export function cache_aside() { getOK(routes.Cached, pick()); }
