/**
 * @module Durable full-build request: an `op = 'full'` change-log row committed under the zone's
 * version guard (concurrent record batches re-plan), then a notification. A lost notification is
 * healed like any other (alarm, sweep), because the request lives in the log.
 */

export interface FullBuildRequest {
  seq: number
}

/** Returns the committed sequence of the request, or null when the zone does not exist. */
export async function requestFullBuild(
  env: {
    DB: D1Database
    ZONE_BUILDER: DurableObjectNamespace<import('./zone-builder.ts').ZoneBuilder>
  },
  zoneId: string,
  notify: (p: Promise<unknown>) => void = (p) => void p.catch(() => {})
): Promise<FullBuildRequest | null> {
  const now = new Date().toISOString()
  const [bumped] = await env.DB.batch([
    env.DB.prepare(
      'UPDATE zones SET version = version + 1, change_seq = change_seq + 1 WHERE id = ?1 RETURNING change_seq'
    ).bind(zoneId),
    env.DB.prepare(
      `INSERT INTO change_log (zone_id, seq, op, created_on) SELECT id, change_seq, 'full', ?2 FROM zones WHERE id = ?1`
    ).bind(zoneId, now),
  ])
  const seq = (bumped!.results[0] as { change_seq: number } | undefined)?.change_seq
  if (seq === undefined) return null
  const stub = env.ZONE_BUILDER.get(env.ZONE_BUILDER.idFromName(zoneId))
  notify(stub.notify(zoneId, seq))
  return { seq }
}
