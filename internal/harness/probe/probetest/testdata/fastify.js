// A Fastify 5 service with @fastify/etag, as they ship, a target of make
// probe's and make audit's tests (internal/harness/probe/probetest.Node): its
// strong ETags (which If-None-Match compares weakly, so W/ matches too),
// its 1 MiB body limit (413), its JSON 400 for bad JSON, and Node's own
// timeouts, nothing added.
'use strict'
const fastify = require('fastify')({ logger: false })

fastify.register(require('@fastify/etag'))
fastify.get('/items/:id', async (req) => ({ id: Number(req.params.id), name: 'item ' + req.params.id }))
fastify.post('/events', async (req, reply) => reply.code(202).send({ accepted: 1 }))
fastify.get('/metrics', async (req, reply) => {
  const cpu = process.cpuUsage()
  reply.type('text/plain')
  return '# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total ' + (cpu.user + cpu.system) / 1e6 + '\n'
})
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).catch((err) => {
  console.error(err)
  process.exit(1)
})
