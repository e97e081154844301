// k6/http for the shim: each call blocks its VU while the main thread does
// the request, and records k6's http_* metrics with k6's tags.
const vu = () => globalThis.__shim;
let expected = null; // [{min, max} | status]

export function expectedStatuses(...list) { return { expected: list }; }
export function setResponseCallback(cb) { expected = cb && cb.expected; }

function isExpected(status) {
  if (!expected) return status >= 200 && status < 400;
  return expected.some((e) => (typeof e === 'number' ? e === status : status >= e.min && status <= e.max));
}

function request(method, url, body, params) {
  params = params || {};
  const res = vu().http({ method, url: String(url), body: body == null ? null : String(body), headers: params.headers || {} });
  const tags = { name: (params.tags && params.tags.name) || String(url), method, status: String(res.status), ...(params.tags || {}) };
  const ok = res.status !== 0 && isExpected(res.status);
  tags.expected_response = String(ok);
  vu().add('http_reqs', 'counter', 'default', 1, tags);
  vu().add('http_req_duration', 'trend', 'time', res.ms, tags);
  vu().rate('http_req_failed', !ok, tags);
  vu().add('data_received', 'counter', 'data', res.wire, tags);
  return { status: res.status, headers: res.headers, body: res.body, error: res.error || '', timings: { duration: res.ms } };
}

export const get = (url, params) => request('GET', url, null, params);
export const post = (url, body, params) => request('POST', url, body, params);
export default { get, post, expectedStatuses, setResponseCallback };
