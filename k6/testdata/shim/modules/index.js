// k6's check and sleep, for the shim (k6/testdata/shim/k6.mjs).
const vu = () => globalThis.__shim;

export function check(val, sets, tags) {
  let all = true;
  for (const [name, f] of Object.entries(sets)) {
    const ok = !!(typeof f === 'function' ? f(val) : f);
    vu().rate('checks', ok, { check: name, ...(tags || {}) });
    all &&= ok;
  }
  return all;
}

export function sleep(s) { vu().sleep(s); }
export default { check, sleep };
