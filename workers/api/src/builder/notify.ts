/**
 * @module Tells a zone's ZoneBuilder that its change log moved, without delaying the response.
 * A lost notification is healed by the builder's alarm and the cron sweep.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../http/app-env.ts'

export function notifyBuilder(c: Context<AppEnv>, zoneId: string, seq: number): void {
  const stub = c.env.ZONE_BUILDER.get(c.env.ZONE_BUILDER.idFromName(zoneId))
  c.executionCtx.waitUntil(
    afterResponse()
      .then(() => stub.notify(zoneId, seq))
      .catch((e: unknown) => console.warn('builder notification lost; the sweep will heal it', zoneId, seq, e))
  )
}

/**
 * Resolves once the response has had its turn: the notification goes out after it. Where the
 * builder shares the runtime's thread (workerd locally) its pass would otherwise run before the
 * response is sent; on Cloudflare it runs in its own Durable Object and this costs nothing.
 */
function afterResponse(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 30))
}
