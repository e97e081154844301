// Step 10 — scale out: the step-5 read path (memory → Redis → PostgreSQL)
// over the hot-skewed live streams. The Go bench also runs it as N replicas
// behind HAProxy and measures the stale window; those rows count each
// replica's /metrics, which k6 does not read, so only the single server's
// row is here. Point BASE_URL at a balancer of your own to load the fleet.
//
//   make step-10 run       # in one terminal
//   k6 run k6/10-scale-out.js
import { getOK, makeSkew, sequential } from './lib/common.js';
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const pick = makeSkew(params.catalog);

export const options = sequential(params, ['single'], 'single');
// The summary `make step-N bench TOOL=k6` reads, and the meter that marks the window.
export { handleSummary, meter } from './lib/common.js';

export function single() { getOK(routes.Burst, pick()); }
