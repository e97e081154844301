// Helpers shared by the step scripts. Every parameter comes from
// ./params.json, the file the Go driver embeds, so `make step-N bench` and
// `k6 run k6/NN-slug.js` run the same scenario.
//
// Environment: BASE_URL (default http://127.0.0.1:8080), VUS, DURATION
// (e.g. 10s), ITERATIONS (shared across VUs; runs one VARIANT), VARIANT.

import http from 'k6/http';
import { check, sleep } from 'k6';
import { Gauge, Trend } from 'k6/metrics';
import * as routes from './routes.js';

export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');

// getOK is the one request of every read variant: a GET of route (of
// item id, for a route with :id), tagged with the route's name, the row's
// name in the results and in the Go driver, and checked for a 200.
export function getOK(route, id) {
  const path = id === undefined ? route : routes.path(route, id);
  const res = http.get(`${BASE_URL}${path}`, { tags: { name: routes.GET(route) } });
  check(res, { [`${routes.GET(route)} 200`]: (r) => r.status === 200 });
  return res;
}

function seconds(s) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(String(s));
  if (!m) throw new Error(`DURATION=${s}: want e.g. 10s`);
  const n = parseFloat(m[1]);
  return m[2] === 'ms' ? n / 1000 : m[2] === 'm' ? n * 60 : n;
}

// sequential builds k6 options that run the variants one after another, like
// the rows of the Go driver's table: for each, a warm-up, then the measured
// run. Each variant is an exported function named like it ('empty-get' →
// empty_get).
//
// opts.properties states, per variant, what the step proves where k6 can
// see it: thresholds on the server's own counters over that variant's
// window (the meter below), e.g. { 'cache-aside': { server_db_queries_per_req: ['value<0.05'] } }.
// opts.settle (write steps), the variants that store what they accept:
// after each one's measured run, wait until the server
// has persisted what it accepted before the next variant, as the Go driver
// does; k6 schedules scenarios at fixed times, so the wait has a budget
// (SETTLE_MAX seconds, default 20).
//
// `make step-N bench TOOL=k6` runs one variant per k6 process (VARIANT),
// its warm-up then its window, and passes MARK_URL: the meter calls it as
// the window opens and closes, and the bench scrapes /metrics there, as it
// does around the Go driver's window. One process, so each VU keeps what
// it learnt in the warm-up (step 3's ETags, its connection), as the Go
// driver's users do. PHASE=warmup or PHASE=measure runs only that part
// (with ITERATIONS, the bench runs them as two processes).
export function sequential(params, variants, primary, opts = {}) {
  const vus = parseInt(__ENV.VUS || params.load.vus, 10);
  const iterations = __ENV.ITERATIONS ? parseInt(__ENV.ITERATIONS, 10) : 0;
  // k6 refuses a constant-vus scenario shorter than 1 s.
  const duration = Math.max(1, __ENV.DURATION ? seconds(__ENV.DURATION) : params.load.duration_s);
  const warmup = __ENV.WARMUP ? seconds(__ENV.WARMUP) : params.load.warmup_s;
  const phase = __ENV.PHASE || 'both';
  if (!['both', 'warmup', 'measure'].includes(phase)) throw new Error(`PHASE=${phase}: want warmup or measure`);
  // The bench settles itself (MARK_URL): k6 then stops at the window's end.
  const settles = (v) => (opts.settle || []).includes(v) && phase === 'both' && !__ENV.MARK_URL;
  const settle = parseFloat(__ENV.SETTLE_MAX || '20');
  let chosen = variants;
  if (__ENV.VARIANT) {
    chosen = variants.filter((v) => v === __ENV.VARIANT);
    if (chosen.length === 0) throw new Error(`VARIANT=${__ENV.VARIANT}: want one of ${variants.join(', ')}`);
  } else if (iterations > 0) {
    // A count cannot be scheduled after another count: run one variant.
    chosen = [primary || variants[variants.length - 1]];
  }
  const scenarios = {};
  const thresholds = {};
  let start = 0;
  for (const v of chosen) {
    const exec = v.replace(/-/g, '_');
    if (phase === 'warmup') {
      // The warm-up alone (the bench's first k6 process): DURATION long.
      scenarios[`${exec}_warmup`] = {
        executor: 'constant-vus', vus, duration: `${duration}s`, startTime: `${start}s`, exec,
        gracefulStop: '0s', tags: { phase: 'warmup' },
      };
      start += duration;
      continue;
    }
    if (phase === 'both' && warmup > 0 && !settles(v)) {
      // (a variant that settles has no warm-up, as in the Go driver: every
      // event it accepts must be persisted inside its own measurement)
      // gracefulStop 0s: k6 plans VUs for a scenario's grace period too, and
      // the measured run must not start while warm-up iterations still run.
      scenarios[`${exec}_warmup`] = {
        executor: 'constant-vus', vus, duration: `${Math.max(1, warmup)}s`, startTime: `${start}s`, exec,
        gracefulStop: '0s', tags: { phase: 'warmup' },
      };
      start += Math.max(1, warmup);
    }
    if (iterations > 0) {
      scenarios[exec] = {
        executor: 'shared-iterations', vus, iterations, maxDuration: '30m', startTime: `${start}s`, exec,
        tags: { phase: 'measure' },
      };
    } else {
      // Like the Go driver's window: requests still in flight when it
      // closes are not counted (gracefulStop 0s interrupts them).
      scenarios[exec] = {
        executor: 'constant-vus', vus, duration: `${duration}s`, startTime: `${start}s`, exec,
        gracefulStop: '0s', tags: { phase: 'measure' },
      };
      // The meter: one VU reads /metrics as the window opens and closes.
      // (a variant that settles: the meter reads its write-side counts once
      // the server has persisted what it accepted, within the settle budget)
      const meterEnv = { METER_VARIANT: v, METER_SECONDS: String(duration) };
      if (settles(v)) meterEnv.METER_SETTLE_MAX = String(settle);
      scenarios[`${exec}_meter`] = {
        executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: `${duration + (settles(v) ? settle : 0) + 10}s`,
        startTime: `${start}s`, exec: 'meter', env: meterEnv, tags: { phase: 'meter' },
      };
      start += duration;
      if (settles(v)) {
        scenarios[`${exec}_settle`] = {
          executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: `${settle}s`, startTime: `${start}s`,
          exec: 'settle', env: { METER_VARIANT: v, SETTLE_MAX: String(settle) }, tags: { phase: 'settle' },
        };
        start += settle;
        thresholds[`settle_seconds{variant:${v}}`] = [`max<${settle - 1}`];
      }
    }
    // These thresholds put each variant's own figures in the summary (k6
    // reports a submetric only when a threshold names it) and state what
    // every row must hold: it ran, almost nothing failed, nothing hit the
    // Go driver's 30 s timeout.
    thresholds[`http_reqs{scenario:${exec}}`] = ['count>0'];
    thresholds[`http_req_failed{scenario:${exec}}`] = ['rate<0.01'];
    thresholds[`http_req_duration{scenario:${exec}}`] = ['max<30000'];
    thresholds[`data_received{scenario:${exec}}`] = ['count>0'];
    thresholds[`checks{scenario:${exec}}`] = ['rate>0.99'];
    for (const [metric, conds] of Object.entries((opts.properties || {})[v] || {})) {
      if (!meters[metric]) throw new Error(`properties of ${v}: no meter ${metric} (have ${Object.keys(meters).join(', ')})`);
      if (iterations === 0) thresholds[`${metric}{variant:${v}}`] = conds;
    }
  }
  return { scenarios, thresholds, summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'] };
}

// The server's counters per request over one variant's window, read from
// its /metrics by the meter scenario: the same counters, divided the same
// way, as the Go driver's table (internal/harness/proc/counts.go). DB queries and
// Redis bytes are the completed counters: each request's own work, counted
// with its response, divided by the requests counted with them, so the
// requests in flight at the window's edges cannot skew them. A server
// without them: the global counters over the requests it counted. The
// write side (round trips, writes) is mostly a batcher's, on no request's
// behalf: the global counters, read once the server has settled when the
// script settles (under the bench, which settles itself, at the window's
// end: the bench's table reads them after its own settle).
const meters = {
  server_db_queries_per_req: new Gauge('server_db_queries_per_req'),
  server_db_queries_per_s: new Gauge('server_db_queries_per_s'),
  server_redis_bytes_per_req: new Gauge('server_redis_bytes_per_req'),
  server_304_share: new Gauge('server_304_share'),
  server_memory_hit_ratio: new Gauge('server_memory_hit_ratio'),
  server_db_round_trips_per_req: new Gauge('server_db_round_trips_per_req'),
  server_db_writes_per_req: new Gauge('server_db_writes_per_req'),
  server_cpu_us_per_req: new Gauge('server_cpu_us_per_req'),
};
const settleSeconds = new Trend('settle_seconds');

// counters parses Prometheus' text format like internal/harness/proc.Scrape: each
// metric summed over its labels, plus "name{label=value}" per label.
export function counters(text) {
  const c = {};
  const add = (k, v) => { c[k] = (c[k] || 0) + v; };
  for (const line of String(text).split('\n')) {
    if (line === '' || line[0] === '#') continue;
    const sp = line.lastIndexOf(' ');
    const v = parseFloat(line.slice(sp + 1));
    if (sp < 0 || Number.isNaN(v)) continue;
    const series = line.slice(0, sp);
    const brace = series.indexOf('{');
    const name = brace < 0 ? series : series.slice(0, brace);
    add(name, v);
    if (brace < 0) continue;
    const pairs = series.slice(brace + 1, -1).replace(/"/g, '').split(',').filter((p) => p);
    add(`${name}{${pairs.join(',')}}`, v); // the whole series, labels as exposed (sorted)
    if (pairs.length > 1) for (const p of pairs) add(`${name}{${p}}`, v);
  }
  return c;
}

// mark tells the bench that drives this run (MARK_URL) where the window is.
function mark(edge) {
  if (!__ENV.MARK_URL) return;
  const res = http.get(`${__ENV.MARK_URL}/${edge}`, { tags: { name: 'mark' } });
  if (res.status !== 200) throw new Error(`MARK_URL ${edge}: HTTP ${res.status}`);
}

function scrape() {
  const res = http.get(`${BASE_URL}/metrics`, { tags: { name: 'GET /metrics' } });
  return counters(res.body);
}

// meter: the variant's window seen from the server.
export function meter() {
  mark('start');
  const before = scrape();
  sleep(parseFloat(__ENV.METER_SECONDS));
  const after = scrape();
  mark('end');
  const tags = { variant: __ENV.METER_VARIANT };
  const w = perRequest(before, after);
  if (!w) return;
  meters.server_db_queries_per_req.add(w.dbQueries, tags);
  meters.server_db_queries_per_s.add(w.d('peakload_db_queries_total') / parseFloat(__ENV.METER_SECONDS), tags);
  meters.server_redis_bytes_per_req.add(w.redisBytes, tags);
  meters.server_304_share.add(w.d('peakload_http_requests_total{status=304}') / w.served, tags);
  const mem = w.d('peakload_cache_lookups_total{tier=memory}');
  if (mem > 0) meters.server_memory_hit_ratio.add(w.d('peakload_cache_lookups_total{result=hit,tier=memory}') / mem, tags);
  meters.server_cpu_us_per_req.add(w.d('process_cpu_seconds_total') * 1e6 / w.served, tags);
  const s = __ENV.METER_SETTLE_MAX ? perRequest(before, settled(parseFloat(__ENV.METER_SETTLE_MAX) - 1) || after) : w;
  meters.server_db_round_trips_per_req.add((s.d('peakload_mongo_commands_total{cmd=insert}') + s.d('peakload_mongo_commands_total{cmd=update}')) / s.served, tags);
  meters.server_db_writes_per_req.add(s.d('peakload_db_writes_total') / s.served, tags);
}

// perRequest reads a window's deltas: d(key), the requests the server
// served (/metrics itself excluded), and the DB queries and Redis bytes per
// request (exact when the server has the completed counters). null when the
// window served nothing.
export function perRequest(before, after) {
  const d = (k) => (after[k] || 0) - (before[k] || 0);
  const served = d('peakload_http_requests_total') - d('peakload_http_requests_total{route=/metrics}');
  if (served <= 0) return null;
  if (after.peakload_completed_requests_total !== undefined) {
    const done = d('peakload_completed_requests_total') - d('peakload_completed_requests_total{route=/metrics}');
    if (done > 0) {
      return { d, served, dbQueries: d('peakload_completed_db_queries_total') / done, redisBytes: d('peakload_completed_redis_bytes_total') / done };
    }
  }
  return { d, served, dbQueries: d('peakload_db_queries_total') / served,
    redisBytes: (d('peakload_redis_read_bytes_total') + d('peakload_redis_written_bytes_total')) / served };
}

// settled waits until the server has persisted every event it accepted
// and returns that scrape (null if budget seconds went by first).
function settled(budget) {
  const t0 = Date.now();
  for (;;) {
    const c = scrape();
    // Rejected: accepted, then refused for good by the database and dead-lettered.
    const done = (c.peakload_events_persisted_total || 0) + (c.peakload_events_rejected_total || 0);
    if (done >= (c.peakload_events_accepted_total || 0)) return c;
    if ((Date.now() - t0) / 1000 > budget) return null;
    sleep(0.05);
  }
}

// settle (write steps, between variants): wait until the server has
// persisted every event it accepted, as the Go driver does, and record how
// long that took: article B's "additional time".
export function settle() {
  const t0 = Date.now();
  if (!settled(parseFloat(__ENV.SETTLE_MAX) - 1)) {
    console.warn(`${__ENV.METER_VARIANT}: not settled within SETTLE_MAX=${__ENV.SETTLE_MAX}s; the next variant starts on a busy server`);
  }
  settleSeconds.add((Date.now() - t0) / 1000, { variant: __ENV.METER_VARIANT });
}

// liveID is the id of the live stream of rank k (0 = the most watched).
export function liveID(c, k) {
  return ((k * c.hot_stride) % c.items) + 1;
}

// makeSkew returns the id picker of internal/given/catalog.Skew: with probability
// hot_share one of hot_items live streams, ranked by a Zipf law of exponent
// zipf_s (rank 0 the most watched), else any item of the catalogue.
export function makeSkew(c) {
  const cdf = [];
  let total = 0;
  for (let k = 0; k < c.hot_items; k++) {
    total += 1 / Math.pow(k + 1, c.zipf_s);
    cdf.push(total);
  }
  for (let k = 0; k < cdf.length; k++) cdf[k] /= total;
  const hotID = (k) => liveID(c, k);
  function rank(u) {
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  return function pick() {
    if (Math.random() < c.hot_share) return hotID(rank(Math.random()));
    return Math.floor(Math.random() * c.items) + 1;
  };
}

export const JSON_HEADERS = { headers: { 'Content-Type': 'application/json' } };

// paced sleeps for what is left of period after the request that started
// at start (ms): a client polling on a timer, as the Go driver's Pace.
export function pacedSleep(sleep, start, periodSeconds) {
  const left = periodSeconds - (Date.now() - start) / 1000;
  if (left > 0) sleep(left);
}

// handleSummary: with SUMMARY=<file>, k6's whole summary data as JSON (what
// `make step-N bench TOOL=k6` reads); on stdout, one row per measured
// variant and the thresholds, in place of k6's default summary. Each step
// script re-exports it.
export function handleSummary(data) {
  const out = { stdout: report(data) };
  if (__ENV.SUMMARY) out[__ENV.SUMMARY] = JSON.stringify(data, null, 1);
  return out;
}

function report(data) {
  const m = data.metrics;
  const val = (name, key) => (m[name] && m[name].values ? m[name].values[key] : undefined);
  const f = (x, d = 2) => (x === undefined ? '-' : x.toFixed(d));
  const lines = ['', 'variant                     req   p50 ms   p95 ms   p99 ms  failed  KB/req'];
  for (const key of Object.keys(m)) {
    const match = /^http_reqs\{scenario:(.+)\}$/.exec(key);
    if (!match) continue;
    const s = match[1];
    const n = val(key, 'count');
    const d = `http_req_duration{scenario:${s}}`;
    lines.push(`${s.padEnd(22)} ${String(n).padStart(8)} ${f(val(d, 'med')).padStart(8)} ${f(val(d, 'p(95)')).padStart(8)} ${f(val(d, 'p(99)')).padStart(8)}` +
      ` ${f(100 * (val(`http_req_failed{scenario:${s}}`, 'rate') || 0), 1).padStart(6)}% ${f((val(`data_received{scenario:${s}}`, 'count') || 0) / 1024 / Math.max(n, 1)).padStart(7)}`);
  }
  const meterRows = Object.keys(m).filter((k) => /^server_.+\{variant:/.test(k) || /^settle_seconds\{/.test(k));
  if (meterRows.length) lines.push('', 'the server over each window (its /metrics):');
  for (const k of meterRows) lines.push(`  ${k} = ${f(val(k, 'value') !== undefined ? val(k, 'value') : val(k, 'max'), 4)}`);
  const th = [];
  for (const [name, metric] of Object.entries(m)) {
    for (const [cond, r] of Object.entries(metric.thresholds || {})) th.push(`  ${r.ok ? '✓' : '✗'} ${name} ${cond}`);
  }
  if (th.length) lines.push('', 'thresholds:', ...th);
  lines.push('', `(k6's whole summary: SUMMARY=summary.json; live charts: K6_WEB_DASHBOARD=true, see k6/README.md)`, '');
  return lines.join('\n');
}
