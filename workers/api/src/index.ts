/**
 * @module API worker entry: the records API, the ZoneBuilder Durable Object class, the
 * propagation sweep (cron), and `/dns-query`, answered in-process by the DoH worker's handler over
 * the same KV namespace (so one `wrangler dev` of this worker serves everything, with no service
 * binding to a second dev session). The DoH worker is still deployed on its own as the lean
 * DoH endpoint.
 */
import doh from '@edgedns/doh-worker'
import { createApp } from './app.ts'
import { sweep } from './builder/sweep.ts'

export { ZoneBuilder } from './builder/zone-builder.ts'

const app = createApp()

export default {
  async fetch(req, env, ctx) {
    const path = new URL(req.url).pathname
    if (path === '/dns-query' || path.startsWith('/dns-query/')) return doh.fetch(req, env)
    return app.fetch(req, env, ctx)
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(sweep(env))
  },
} satisfies ExportedHandler<Env>
