// Step 2 — cache-aside: the ceiling, the direct read and the Redis
// get-or-set read of the same hot-skewed ids.
//
//   make step-2 run        # in one terminal (PostgreSQL, Redis, the worker)
//   k6 run k6/02-cache-aside.js
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, makeSkew, sequential } from './lib/common.js';
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

export function empty_get() {
  const res = http.get(`${BASE_URL}${routes.Empty}`, { tags: { name: routes.GET(routes.Empty) } });
  check(res, { [`${routes.GET(routes.Empty)} 200`]: (r) => r.status === 200 });
}

export function direct_db() {
  const res = http.get(`${BASE_URL}${routes.path(routes.Items, pick())}`, { tags: { name: routes.GET(routes.Items) } });
  check(res, { [`${routes.GET(routes.Items)} 200`]: (r) => r.status === 200 });
}

export function cache_aside() {
  const res = http.get(`${BASE_URL}${routes.path(routes.Cached, pick())}`, { tags: { name: routes.GET(routes.Cached) } });
  check(res, { [`${routes.GET(routes.Cached)} 200`]: (r) => r.status === 200 });
}
