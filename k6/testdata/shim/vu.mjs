// One VU of the shim (k6.mjs): imports the script, runs its scenario
// function until the scenario ends, keeps its samples by metric and tag set.
import fs from 'node:fs';
import path from 'node:path';
import { workerData, parentPort } from 'node:worker_threads';

const w = workerData;
const flag = new Int32Array(w.sab, 0, 2);
const nap = new Int32Array(new SharedArrayBuffer(4));
class Interrupted extends Error {}
const scenarioTags = w.mode === 'run' ? { scenario: w.scenario, ...w.tags } : {};
const metrics = {}; // name → {type, contains, series: Map(tagsKey → aggregate)}

function series(name, type, contains, tags) {
  const m = (metrics[name] ??= { type, contains, series: new Map() });
  const all = { ...scenarioTags, ...tags };
  const key = JSON.stringify(Object.entries(all).sort());
  let s = m.series.get(key);
  if (!s) m.series.set(key, (s = { tags: all, sum: 0, values: [], trues: 0, total: 0, last: 0, min: Infinity, max: -Infinity, at: 0 }));
  return s;
}

globalThis.__ENV = w.env;
globalThis.__VU = w.vu || 0;
globalThis.__ITER = 0;
globalThis.open = (p) => fs.readFileSync(path.resolve(w.scriptDir, p), 'utf8');
globalThis.__shim = {
  add(name, type, contains, v, tags) {
    const s = series(name, type, contains, tags);
    if (type === 'trend') s.values.push(v);
    else if (type === 'gauge') { s.last = v; s.min = Math.min(s.min, v); s.max = Math.max(s.max, v); s.at = Date.now(); }
    else s.sum += v;
  },
  rate(name, ok, tags) { const s = series(name, 'rate', 'default', tags); s.total++; if (ok) s.trues++; },
  http(req) {
    Atomics.store(flag, 0, 0);
    parentPort.postMessage({ type: 'http', ...req });
    Atomics.wait(flag, 0, 0);
    const res = JSON.parse(Buffer.from(new Uint8Array(w.sab, 8, flag[1])).toString('utf8'));
    if (w.endAt && Date.now() > w.endAt) throw new Interrupted(); // gracefulStop 0s: not counted
    return res;
  },
  sleep(s) {
    const ms = s * 1000;
    const left = w.endAt ? w.endAt - Date.now() : ms;
    Atomics.wait(nap, 0, 0, Math.max(0, Math.min(ms, left)));
    if (w.endAt && Date.now() >= w.endAt) throw new Interrupted();
  },
};

const mod = await import(w.entry);
if (w.mode === 'options') {
  parentPort.postMessage({ type: 'done', options: JSON.parse(JSON.stringify(mod.options || {})) });
} else if (w.mode === 'summary') {
  parentPort.postMessage({ type: 'done', outputs: mod.handleSummary ? mod.handleSummary(w.data) : {} });
} else {
  const fn = mod[w.exec];
  if (typeof fn !== 'function') throw new Error(`scenario ${w.scenario}: the script exports no function ${w.exec}`);
  const counter = new Int32Array(w.shared);
  parentPort.postMessage({ type: 'ready' });
  Object.assign(w, await new Promise((r) => parentPort.once('message', r))); // startAt, endAt
  if (w.startAt > Date.now()) Atomics.wait(nap, 0, 0, w.startAt - Date.now());
  for (let i = 0; ; i++) {
    if (Date.now() >= w.endAt) break;
    if (w.executor === 'per-vu-iterations' && i >= w.iterations) break;
    if (w.executor === 'shared-iterations' && Atomics.sub(counter, 0, 1) <= 0) break;
    globalThis.__ITER = i;
    try {
      fn();
      __shim.add('iterations', 'counter', 'default', 1, {});
    } catch (e) {
      if (e instanceof Interrupted) break;
      console.error(`${w.scenario}: ${e && e.stack}`);
    }
  }
  const out = {};
  for (const [name, m] of Object.entries(metrics)) out[name] = { type: m.type, contains: m.contains, series: [...m.series.values()] };
  parentPort.postMessage({ type: 'done', metrics: out });
}
