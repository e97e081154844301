// Step 0 — ceilings: GET /empty (a body as big as an item) and POST /empty
// (the real event payload, parsed and discarded), one after the other.
//
//   make step-0 run        # in one terminal
//   k6 run k6/00-ceilings.js
//
// The shell's layers (the bench's shell-* rows) are servers of their own:
//
//   PEAKLOAD_SHELL=bare make step-0 run     # bare, timeouts, guards
//   k6 run -e PEAKLOAD_SHELL=bare k6/00-ceilings.js
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, getOK, JSON_HEADERS, sequential } from './lib/common.js';
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const EVENT = JSON.stringify(params.event);

const SHELL = __ENV.PEAKLOAD_SHELL;
const variants = SHELL ? [`shell-${SHELL}`] : ['empty-get', 'empty-post'];
export const options = sequential(params, variants, variants[0]);

// The summary `make step-N bench TOOL=k6` reads, and the meter and settle scenarios.
export { handleSummary, meter } from './lib/common.js';

export function empty_get() { getOK(routes.Empty); }

export function empty_post() {
  const res = http.post(`${BASE_URL}${routes.Empty}`, EVENT, Object.assign({ tags: { name: routes.POST(routes.Empty) } }, JSON_HEADERS));
  check(res, { [`${routes.POST(routes.Empty)} 200`]: (r) => r.status === 200 });
}

// Each layer's row is the same GET, on the server started with that layer.
export { empty_get as shell_bare, empty_get as shell_timeouts, empty_get as shell_guards };
