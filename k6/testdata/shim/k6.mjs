// A stand-in for k6, for tests on machines where k6 cannot be installed:
// `node k6.mjs run [--quiet] [-e K=V]... [--summary-export F] script.js`
// runs a step script's scenarios against a real server and ends the way k6
// does — the script's handleSummary called with a summary object in k6's
// documented shape (metrics by name with "values", submetrics for the
// thresholds' tags, state.testRunDurationMs), its outputs written, F in the
// older shape k6 keeps for --summary-export, exit code 99 when a threshold
// failed. compose/test-compose.sh makes it the grafana/k6 stand-in image.
//
// What it implements: the executors the scripts use (constant-vus,
// per-vu-iterations, shared-iterations) with startTime and gracefulStop
// 0s, one keep-alive connection per VU, k6/http get/post with tags,
// expectedStatuses/setResponseCallback, check, sleep, k6/metrics (Counter,
// Gauge, Rate, Trend) and thresholds on count/rate/value/avg/min/max/med/p(N).
// What it cannot prove: k6's own speed and CPU cost per request (Node
// makes every request through the main thread: its req/s is the shim's,
// never k6's), k6's exact percentile algorithm, setup/teardown, groups,
// and that real k6 accepts every option (the lead's runs with k6 v1/v2 do).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
if (args[0] !== 'run') {
  console.error('usage: k6.mjs run [--quiet] [-e K=V]... [--summary-export F] script.js');
  process.exit(2);
}
const env = { ...process.env };
let script;
let summaryExport; // --summary-export FILE: what compose/compose.yaml's k6 service passes
for (let i = 1; i < args.length; i++) {
  if (args[i] === '-e' || args[i] === '--env') {
    const [k, ...v] = args[++i].split('=');
    env[k] = v.join('=');
  } else if (args[i] === '--summary-export') {
    summaryExport = args[++i];
  } else if (args[i].startsWith('--summary-export=')) {
    summaryExport = args[i].slice('--summary-export='.length);
  } else if (args[i].startsWith('-')) {
    // --quiet and the like: nothing to do
  } else {
    script = args[i];
  }
}

// The script's directory, copied beside stand-ins for k6's modules so that
// Node resolves `import http from 'k6/http'` to them.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'k6shim-'));
fs.cpSync(path.dirname(path.resolve(script)), tmp, { recursive: true, filter: (s) => !s.includes('node_modules') && !s.includes('testdata') && !s.endsWith('.go') });
fs.mkdirSync(path.join(tmp, 'node_modules'), { recursive: true });
fs.cpSync(path.join(here, 'modules'), path.join(tmp, 'node_modules', 'k6'), { recursive: true });
fs.writeFileSync(path.join(tmp, 'package.json'), '{"type":"module"}');
const entry = path.join(tmp, path.basename(script));
const scriptDir = path.dirname(path.resolve(script));

// One runtime per VU, as in k6: a worker thread that imports the script
// (its init code runs there) and calls the scenario's function in a loop.
// Its http calls block on Atomics.wait while this thread does the I/O.
const SLOT = 1 << 20;
function startVU(spec) {
  const sab = new SharedArrayBuffer(8 + SLOT);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const w = new Worker(path.join(here, 'vu.mjs'), {
    workerData: { ...spec, entry: pathToFileURL(entry).href, scriptDir, env: { ...env, ...(spec.env || {}) }, sab },
  });
  let ready;
  const isReady = new Promise((r) => { ready = r; });
  const done = new Promise((resolve, reject) => {
    w.on('message', (m) => {
      if (m.type === 'http') doRequest(agent, sab, m);
      else if (m.type === 'ready') ready();
      else if (m.type === 'done') { agent.destroy(); ready(); resolve(m); }
    });
    w.on('error', reject);
    w.on('exit', (code) => code !== 0 && reject(new Error(`VU exited with ${code}`)));
  });
  return { ready: isReady, done, go: (startAt, endAt) => w.postMessage({ startAt, endAt }) };
}

function doRequest(agent, sab, m) {
  const t0 = process.hrtime.bigint();
  const u = new URL(m.url);
  const headers = { ...(m.headers || {}) };
  if (m.body != null) headers['Content-Length'] = Buffer.byteLength(m.body);
  const req = http.request({ agent, host: u.hostname, port: u.port, path: u.pathname + u.search, method: m.method, headers }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => {
      const body = Buffer.concat(chunks);
      let wire = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length + 2 + body.length;
      for (let i = 0; i < res.rawHeaders.length; i += 2) wire += res.rawHeaders[i].length + 2 + res.rawHeaders[i + 1].length + 2;
      const hdrs = {};
      for (const [k, v] of Object.entries(res.headers)) hdrs[k.split('-').map((p) => p[0].toUpperCase() + p.slice(1)).join('-')] = v;
      reply(sab, { status: res.statusCode, headers: hdrs, body: body.toString('utf8'), wire, ms: Number(process.hrtime.bigint() - t0) / 1e6 });
    });
  });
  req.on('error', (e) => reply(sab, { status: 0, headers: {}, body: '', error: String(e), wire: 0, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
  if (m.body != null) req.write(m.body);
  req.end();
}

function reply(sab, obj) {
  let b = Buffer.from(JSON.stringify(obj));
  if (b.length > SLOT) b = Buffer.from(JSON.stringify({ ...obj, body: obj.body.slice(0, SLOT / 2) }));
  new Uint8Array(sab, 8).set(b);
  const flag = new Int32Array(sab, 0, 2);
  flag[1] = b.length;
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

// The options, from one runtime's init.
const first = await startVU({ mode: 'options' }).done;
const options = first.options || {};
const scenarios = options.scenarios || { default: { executor: 'per-vu-iterations', vus: options.vus || 1, iterations: options.iterations || 1, exec: 'default' } };
const seconds = (s) => {
  if (s == null) return 0;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(s));
  const n = parseFloat(m[1]);
  return { ms: n / 1000, m: n * 60, h: n * 3600 }[m[2]] ?? n;
};

// Every VU is initialised (its script imported) before the test's clock
// starts, as k6 does; then each scenario starts at its startTime.
const planned = [];
for (const [name, sc] of Object.entries(scenarios)) {
  const shared = new SharedArrayBuffer(4);
  new Int32Array(shared)[0] = sc.executor === 'shared-iterations' ? sc.iterations : 0;
  for (let i = 0; i < (sc.vus || 1); i++) {
    planned.push({ sc, vu: startVU({
      mode: 'run', scenario: name, exec: sc.exec || 'default', executor: sc.executor, vu: i + 1,
      iterations: sc.executor === 'per-vu-iterations' ? sc.iterations || 1 : 0, shared, env: sc.env, tags: sc.tags || {},
    }) });
  }
}
await Promise.all(planned.map((p) => p.vu.ready));
const t0 = Date.now();
for (const { sc, vu } of planned) {
  const startAt = t0 + 1000 * seconds(sc.startTime);
  vu.go(startAt, sc.executor === 'constant-vus' ? startAt + 1000 * seconds(sc.duration) : startAt + 1000 * seconds(sc.maxDuration || '10m'));
}
const results = await Promise.all(planned.map((p) => p.vu.done));
const durationMs = Date.now() - t0;

// Merge every VU's samples: metric → tag set → aggregate.
const metrics = {};
for (const r of results) {
  for (const [name, m] of Object.entries(r.metrics)) {
    const into = (metrics[name] ??= { type: m.type, contains: m.contains, series: [] });
    into.series.push(...m.series);
  }
}

function aggregate(type, series) {
  if (type === 'trend') {
    const v = series.flatMap((s) => s.values).sort((a, b) => a - b);
    if (v.length === 0) return null;
    const q = (p) => { const i = (v.length - 1) * p; const lo = Math.floor(i); return v[lo] + (v[Math.min(lo + 1, v.length - 1)] - v[lo]) * (i - lo); };
    const out = {};
    for (const s of options.summaryTrendStats || ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)']) {
      if (s === 'avg') out.avg = v.reduce((a, b) => a + b, 0) / v.length;
      else if (s === 'min') out.min = v[0];
      else if (s === 'max') out.max = v[v.length - 1];
      else if (s === 'med') out.med = q(0.5);
      else if (/^p\(/.test(s)) out[s] = q(parseFloat(s.slice(2, -1)) / 100);
    }
    return out;
  }
  if (series.length === 0) return null;
  if (type === 'counter') {
    const count = series.reduce((a, s) => a + s.sum, 0);
    return { count, rate: count / (durationMs / 1000) };
  }
  if (type === 'rate') {
    const passes = series.reduce((a, s) => a + s.trues, 0);
    const total = series.reduce((a, s) => a + s.total, 0);
    return { rate: total ? passes / total : 0, passes, fails: total - passes };
  }
  const last = series.reduce((a, s) => (s.at > a.at ? s : a));
  return { value: last.last, min: Math.min(...series.map((s) => s.min)), max: Math.max(...series.map((s) => s.max)) };
}

function evaluate(values, cond) {
  const m = /^\s*([a-z]+|p\(\d+(?:\.\d+)?\))\s*(<=|>=|==|!=|<|>|===)\s*(-?[\d.e+-]+)\s*$/.exec(cond);
  if (!m) throw new Error(`threshold ${cond}: not understood by the shim`);
  const key = m[1] === 'p(50)' ? 'med' : m[1];
  const a = values ? values[key] : undefined;
  if (a === undefined) return true; // no samples: k6 does not fail such a threshold either
  const b = parseFloat(m[3]);
  return { '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b, '==': a === b, '===': a === b, '!=': a !== b }[m[2]];
}

const data = {
  root_group: { name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e', groups: [], checks: [] },
  options: { summaryTrendStats: options.summaryTrendStats || ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'], summaryTimeUnit: '', noColor: false },
  state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: durationMs },
  metrics: {},
};
for (const [name, m] of Object.entries(metrics)) {
  const values = aggregate(m.type, m.series);
  if (values) data.metrics[name] = { type: m.type, contains: m.contains, values };
}
let failed = false;
for (const [key, conds] of Object.entries(options.thresholds || {})) {
  const b = key.indexOf('{');
  const name = b < 0 ? key : key.slice(0, b);
  const base = metrics[name];
  let entry = data.metrics[name];
  if (b >= 0) {
    const want = Object.fromEntries(key.slice(b + 1, -1).split(',').map((kv) => { const [k, ...v] = kv.split(':'); return [k.trim(), v.join(':').trim()]; }));
    const series = base ? base.series.filter((s) => Object.entries(want).every(([k, v]) => s.tags[k] === v)) : [];
    const values = base ? aggregate(base.type, series) : null;
    const empty = { counter: { count: 0, rate: 0 }, rate: { rate: 0, passes: 0, fails: 0 } }[base && base.type] || {};
    entry = data.metrics[key] = { type: base ? base.type : 'counter', contains: base ? base.contains : 'default', values: values || empty };
  }
  if (!entry) entry = data.metrics[key] = { type: 'counter', contains: 'default', values: {} };
  entry.thresholds = {};
  for (const c of conds) {
    const ok = evaluate(entry.values, typeof c === 'string' ? c : c.threshold);
    entry.thresholds[typeof c === 'string' ? c : c.threshold] = { ok };
    failed ||= !ok;
  }
}

const outputs = (await startVU({ mode: 'summary', data }).done).outputs || {};
for (const [where, text] of Object.entries(outputs)) {
  if (where === 'stdout') process.stdout.write(text);
  else if (where === 'stderr') process.stderr.write(text);
  else fs.writeFileSync(path.resolve(where), text);
}
// --summary-export writes, beside handleSummary's outputs, the older shape k6
// keeps for that flag: each metric's values at the top of the metric, a rate's
// "rate" as "value", thresholds as {condition: failed}, no options or state.
if (summaryExport) {
  const old = JSON.parse(JSON.stringify(data));
  delete old.options;
  delete old.state;
  for (const [name, m] of Object.entries(old.metrics)) {
    const flat = m.values;
    if (m.thresholds) flat.thresholds = Object.fromEntries(Object.entries(m.thresholds).map(([c, r]) => [c, !r.ok]));
    if (m.type === 'rate' && 'rate' in flat) { flat.value = flat.rate; delete flat.rate; }
    old.metrics[name] = flat;
  }
  old.root_group.groups = {};
  old.root_group.checks = {};
  fs.writeFileSync(path.resolve(summaryExport), JSON.stringify(old, null, 4));
}
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(failed ? 99 : 0);
