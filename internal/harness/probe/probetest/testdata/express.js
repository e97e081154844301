// An Express 5 service as it ships, a target of make probe's and make
// audit's tests (internal/harness/probe/probetest.Node): express.json() with its
// defaults (a 100 kB limit, answered 413; bad JSON answered 400 by the
// default error handler, as text/html), Express's own weak ETags and 304s,
// and Node's own timeouts, nothing added.
//
// GET /items/:id reads a "database" (20 ms, counted) on a cache miss,
// with no coalescing: 50 requests for a cold key are 50 queries.
// GET /coalesced/items/:id shares the one read in flight: 1 query for 50.
// /metrics is Prometheus text written by hand (prom-client is not in
// originals/package-lock.json): that query counter and the process's CPU.
'use strict'
const express = require('express')

let queries = 0
const cache = new Map()
const inFlight = new Map()

function query (id) {
  queries++
  return new Promise((resolve) => setTimeout(() => resolve({ id, name: 'item ' + id }), 20))
}

async function read (id, coalesce) {
  if (cache.has(id)) return cache.get(id)
  let p = coalesce ? inFlight.get(id) : undefined
  if (!p) {
    p = query(id).finally(() => inFlight.delete(id))
    if (coalesce) inFlight.set(id, p)
  }
  const item = await p
  cache.set(id, item)
  return item
}

const app = express()
app.get('/items/:id', async (req, res) => res.json(await read(Number(req.params.id), false)))
app.get('/coalesced/items/:id', async (req, res) => res.json(await read(Number(req.params.id), true)))
app.post('/events', express.json(), (req, res) => res.status(202).json({ accepted: 1 }))
app.get('/metrics', (req, res) => {
  const cpu = process.cpuUsage()
  res.type('text/plain').send('# TYPE db_queries_total counter\ndb_queries_total ' + queries + '\n' +
    '# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total ' + (cpu.user + cpu.system) / 1e6 + '\n')
})
app.listen(Number(process.env.PORT), '127.0.0.1')
