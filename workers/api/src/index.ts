/**
 * @module API worker entry: the records API, the ZoneBuilder Durable Object class, the zone-change
 * feed's Durable Object classes (ZoneFeed, ZoneFeedReplica), the account mover (ShardMover), the secondary zones' transfers (SecondaryZone), the
 * cron maintenance (propagation sweep, deleted-zone erase, change-log retention), and `/dns-query`,
 * answered in-process by the DoH worker's handler over the same KV namespace (so one `wrangler dev`
 * of this worker serves everything, with no service binding to a second dev session). The DoH
 * worker is still deployed on its own as the lean DoH endpoint. With `STRICT_LIMITS=1` the D1 and
 * KV bindings enforce production limits (the test suite's mode). Under `wrangler dev` only, an
 * empty local database gets the bundled migrations first (db/local-migrations.ts).
 */
import doh from '@edgedns/doh-worker'
import { createApp } from './app.ts'
import { maintain } from './cron/maintenance.ts'
import { ensureLocalSchema } from './db/local-migrations.ts'
import { hostAllowed } from './http/loopback.ts'
import { applyStrictLimits, inInvocation } from '@edgedns/strict-bindings'
import { allShards } from './shards/databases.ts'

export { ZoneBuilder } from './builder/zone-builder.ts'
export { ZoneFeed } from './feed/zone-feed.ts'
export { ZoneFeedReplica } from './feed/zone-feed-replica.ts'
export { ShardMover } from './shards/shard-mover.ts'
export { SecondaryZone } from './transfers/secondary-zone.ts'

const app = createApp()

export default {
  fetch(req, env, ctx) {
    const url = new URL(req.url)
    const path = url.pathname
    // Under local development a request not addressed to loopback goes to the app, which refuses it.
    if (
      (path === '/dns-query' || path.startsWith('/dns-query/')) &&
      hostAllowed(env, url, req.headers.get('host'))
    )
      return doh.fetch(req, env, ctx)
    const migrating = ensureLocalSchema(env, url, () => allShards(env).map((s) => s.db))
    // A failed migration is logged; the request then gets the API's 503 naming the manual command.
    if (migrating)
      return migrating
        .catch((e: unknown) => console.error('local D1 migration failed', e))
        .then(() => inInvocation(() => app.fetch(req, applyStrictLimits(env), ctx)))
    return inInvocation(() => app.fetch(req, applyStrictLimits(env), ctx))
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(inInvocation(() => maintain(applyStrictLimits(env))))
  },
} satisfies ExportedHandler<Env>
