// k6/metrics for the shim.
const vu = () => globalThis.__shim;
class Metric {
  constructor(name, type, isTime) { this.name = name; this.type = type; this.contains = isTime ? 'time' : 'default'; }
  add(v, tags) {
    if (this.type === 'rate') vu().rate(this.name, !!v, tags || {});
    else vu().add(this.name, this.type, this.contains, Number(v), tags || {});
  }
}
export class Counter extends Metric { constructor(n, t) { super(n, 'counter', t); } }
export class Gauge extends Metric { constructor(n, t) { super(n, 'gauge', t); } }
export class Rate extends Metric { constructor(n, t) { super(n, 'rate', t); } }
export class Trend extends Metric { constructor(n, t) { super(n, 'trend', t); } }
export default { Counter, Gauge, Rate, Trend };
