/**
 * @module API worker entry: the records API, the ZoneBuilder Durable Object class, the
 * propagation sweep (cron), and in local dev a pass-through to the DoH worker.
 */
import { createApp } from './app.ts'
import { sweep } from './builder/sweep.ts'

export { ZoneBuilder } from './builder/zone-builder.ts'

const app = createApp()

export default {
  async fetch(req, env, ctx) {
    const path = new URL(req.url).pathname
    if (path === '/dns-query' || path.startsWith('/dns-query/')) return env.DOH.fetch(req)
    return app.fetch(req, env, ctx)
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(sweep(env))
  },
} satisfies ExportedHandler<Env>
