/**
 * @module Tells a zone's ZoneBuilder that its change log moved, without delaying the response.
 * A lost notification is healed by the builder's alarm and the cron sweep.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../http/app-env.ts'

export function notifyBuilder(c: Context<AppEnv>, zoneId: string, seq: number): void {
  const stub = c.env.ZONE_BUILDER.get(c.env.ZONE_BUILDER.idFromName(zoneId))
  c.executionCtx.waitUntil(
    stub.notify(zoneId, seq).catch((e: unknown) => console.warn('builder notification lost; the sweep will heal it', zoneId, seq, e))
  )
}
