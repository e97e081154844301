// Step 9 — frameworks: the empty GET, the strict-validation POST and the
// DB-bound item read against whichever framework serves BASE_URL, 500 VUs
// as article D's wrk. `make step-9 bench` starts one process per framework
// (and per pool size); with k6, start each yourself and say which it is:
//
//   make step-9 run FRAMEWORK=fasthttp      # echo, nethttp, fasthttp, yours
//   k6 run -e FRAMEWORK=fasthttp k6/09-frameworks.js
//
//   make step-9 run PG_POOL=2               # the pool experiment: 2, 10, 100
//   k6 run -e PG_POOL=2 k6/09-frameworks.js
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, getOK, JSON_HEADERS, makeSkew, sequential } from './lib/common.js';
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
const pick = makeSkew(params.catalog);
const EVENT = JSON.stringify(params.event);
if (!__ENV.VUS) params.load.vus = params.frameworks.vus;

const FRAMEWORK = __ENV.FRAMEWORK || 'echo';
const variants = __ENV.PG_POOL
  ? [`pool-${__ENV.PG_POOL}`]
  : ['empty', 'validate', 'item'].map((e) => `${FRAMEWORK}-${e}`);

export const options = sequential(params, variants, variants[variants.length - 1]);
export { handleSummary, meter } from './lib/common.js';

function empty() { getOK(routes.Empty); }

function validate() {
  const res = http.post(`${BASE_URL}${routes.Validate}`, EVENT, Object.assign({ tags: { name: routes.POST(routes.Validate) } }, JSON_HEADERS));
  check(res, { [`${routes.POST(routes.Validate)} 200`]: (r) => r.status === 200 });
}

function item() { getOK(routes.Items, pick()); }

// One name per table row (k6 runs scenarios by exported name); the pool
// sizes are k6/lib/params.json's frameworks.pool_sizes.
export {
  empty as echo_empty, validate as echo_validate, item as echo_item,
  empty as nethttp_empty, validate as nethttp_validate, item as nethttp_item,
  empty as fasthttp_empty, validate as fasthttp_validate, item as fasthttp_item,
  empty as yours_empty, validate as yours_validate, item as yours_item,
  item as pool_2, item as pool_10, item as pool_100,
};
