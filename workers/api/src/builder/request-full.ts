/**
 * @module Durable full-build request: an `op = 'full'` change-log row committed through the
 * commit module (concurrent record batches re-plan), then a notification. A lost notification is
 * healed like any other (alarm, sweep), because the request lives in the log.
 */
import {
  builderStub,
  commitZoneChange,
  fullBuildRequestStatements,
  type BuilderBinding,
} from '../commit/zone-change.ts'
import { envForZone } from '../shards/zone-env.ts'

export interface FullBuildRequest {
  seq: number
}

/** Returns the committed sequence of the request, or null when the zone does not exist. */
export async function requestFullBuild(
  env: BuilderBinding & { DB: D1Database },
  zoneId: string,
  notify: (p: Promise<unknown>) => void = (p) => void p.catch(() => {})
): Promise<FullBuildRequest | null> {
  const db = (await envForZone(env, zoneId)).DB
  const [bumped] = await commitZoneChange(
    db,
    fullBuildRequestStatements(db, zoneId, new Date().toISOString())
  )
  const seq = (bumped!.results[0] as { change_seq: number } | undefined)?.change_seq
  if (seq === undefined) return null
  notify(builderStub(env, zoneId).notify(zoneId, seq))
  return { seq }
}
