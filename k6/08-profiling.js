// Step 8 — profiling: logins against the shipped service (/v1/login) and
// your fix (/v2/login), 20 VUs as the guide's `ab -c 20` (article C retells it). Each VU logs in
// as its own demo user (one user per device), as the Go driver does.
//
//   make step-8 run        # in one terminal
//   k6 run k6/08-profiling.js
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, JSON_HEADERS, sequential } from './lib/common.js';
import * as routes from './lib/routes.js';

const params = JSON.parse(open('./lib/params.json'));
if (!__ENV.VUS) params.load.vus = params.login.vus;

export const options = sequential(params, ['before', 'after'], 'after');
export { handleSummary, meter } from './lib/common.js';

// The demo credentials of internal/given/accounts (DemoEmail, DemoPassword).
function credentials() {
  const i = (__VU - 1) % params.login.users; // __VU counts from 1, the Go driver's ids from 0
  const n = String(i).padStart(2, '0');
  return JSON.stringify({ email: `user${n}@peakload.test`, password: `correct horse battery staple ${i}` });
}

function login(path) {
  const res = http.post(`${BASE_URL}${path}`, credentials(), Object.assign({ tags: { name: `POST ${path}` } }, JSON_HEADERS));
  check(res, { [`POST ${path} 200`]: (r) => r.status === 200 });
}

export function before() { login(routes.LoginV1); }
export function after() { login(routes.LoginV2); }
