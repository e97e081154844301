// Step 1 — direct DB: the empty ceiling, then GET /items/:id with
// hot-skewed ids, each read straight from PostgreSQL.
//
//   make step-1 run        # in one terminal (starts PostgreSQL and the worker)
//   k6 run k6/01-direct-db.js
import { getOK, makeSkew, sequential } from './lib/common.js';
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const pick = makeSkew(params.catalog);

// What step 1 proves, seen from the server: one query per read.
export const options = sequential(params, ['empty-get', 'direct-db'], 'direct-db', {
  properties: { 'direct-db': { server_db_queries_per_req: ['value>=0.95', 'value<=1.05'] } },
});
export { handleSummary, meter } from './lib/common.js';

export function empty_get() { getOK(routes.Empty); }
export function direct_db() { getOK(routes.Items, pick()); }
