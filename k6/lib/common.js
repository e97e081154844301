// Helpers shared by the step scripts. Every parameter comes from
// ./params.json, the file the Go driver embeds, so `make step-N bench` and
// `k6 run k6/NN-slug.js` run the same scenario.
//
// Environment: BASE_URL (default http://127.0.0.1:8080), VUS, DURATION
// (e.g. 10s), ITERATIONS (shared across VUs; runs one VARIANT), VARIANT.

export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');

function seconds(s) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(String(s));
  if (!m) throw new Error(`DURATION=${s}: want e.g. 10s`);
  const n = parseFloat(m[1]);
  return m[2] === 'ms' ? n / 1000 : m[2] === 'm' ? n * 60 : n;
}

// sequential builds k6 options that run the variants one after another, like
// the rows of the Go driver's table: for each, a warm-up, then the measured
// run. Each variant is an exported function named like it ('empty-get' →
// empty_get). Thresholds are there only to print a per-variant summary.
export function sequential(params, variants, primary) {
  const vus = parseInt(__ENV.VUS || params.load.vus, 10);
  const iterations = __ENV.ITERATIONS ? parseInt(__ENV.ITERATIONS, 10) : 0;
  const duration = __ENV.DURATION ? seconds(__ENV.DURATION) : params.load.duration_s;
  const warmup = params.load.warmup_s;
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
    scenarios[`${exec}_warmup`] = {
      executor: 'constant-vus', vus, duration: `${warmup}s`, startTime: `${start}s`, exec,
      tags: { phase: 'warmup' },
    };
    start += warmup;
    if (iterations > 0) {
      scenarios[exec] = {
        executor: 'shared-iterations', vus, iterations, maxDuration: '30m', startTime: `${start}s`, exec,
        tags: { phase: 'measure' },
      };
    } else {
      scenarios[exec] = {
        executor: 'constant-vus', vus, duration: `${duration}s`, startTime: `${start}s`, exec,
        gracefulStop: '5s', tags: { phase: 'measure' },
      };
      start += duration + 5;
    }
    thresholds[`http_reqs{scenario:${exec}}`] = ['count>0'];
    thresholds[`http_req_duration{scenario:${exec}}`] = ['p(95)>=0'];
    thresholds[`http_req_failed{scenario:${exec}}`] = ['rate<0.01'];
  }
  return { scenarios, thresholds, summaryTrendStats: ['avg', 'p(50)', 'p(95)', 'p(99)', 'max'] };
}

// liveID is the id of the live stream of rank k (0 = the most watched).
export function liveID(c, k) {
  return ((k * c.hot_stride) % c.items) + 1;
}

// makeSkew returns the id picker of internal/catalog.Skew: with probability
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
