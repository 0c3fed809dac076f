/**
 * Incoming-transfer state of the transfer tests: a primary peer of the default account, a
 * secondary zone's incoming settings written in SQL (so that no check is scheduled: the tests run
 * the checks themselves), and the records a zone holds.
 */
import { env } from 'cloudflare:workers'
import { api, createZone, DEFAULT_ACCOUNT } from './helpers.ts'

/** A secondary zone of the tests; `incoming`: the API path of its incoming settings. */
export interface SecondaryTestZone {
  id: string
  name: string
  incoming: string
}

/**
 * A primary peer of the default account at `ip`, port 1 (nothing answers there: the tests replace
 * the pull), asked IXFR first when `ixfr`; its id.
 */
export async function primaryPeer(ip = '198.51.100.7', ixfr = false): Promise<string> {
  const peers = `/accounts/${DEFAULT_ACCOUNT}/secondary_dns/peers`
  const name = `primary-${ip}`
  const made = await api('POST', peers, { name })
  if (made.status !== 200) throw new Error(`peer not made: ${JSON.stringify(made.body)}`)
  const id = made.body.result.id as string
  const put = await api('PUT', `${peers}/${id}`, { name, ip, port: 1, ixfr_enable: ixfr })
  if (put.status !== 200) throw new Error(`peer not set: ${JSON.stringify(put.body)}`)
  return id
}

/** Incoming settings of `zone` naming `peer` (refreshed daily), written in SQL. */
export async function writeIncoming(
  zone: { id: string; name: string },
  peer: string
): Promise<void> {
  const now = new Date().toISOString()
  await env.DB.prepare(
    `INSERT INTO zone_transfers_incoming (zone_id, name, peers, auto_refresh_seconds, created_on, modified_on)
     VALUES (?1, ?2, ?3, 86400, ?4, ?4)`
  )
    .bind(zone.id, zone.name, JSON.stringify([peer]), now)
    .run()
}

/**
 * A secondary zone whose incoming settings name `peer` (unless given, a new `primaryPeer()`),
 * written in SQL.
 */
export async function secondaryZone(prefix: string, peer?: string): Promise<SecondaryTestZone> {
  const zone = await createZone(prefix, 'secondary')
  await writeIncoming(zone, peer ?? (await primaryPeer()))
  return { ...zone, incoming: `/zones/${zone.id}/secondary_dns/incoming` }
}

/**
 * The records the zone holds, each as `name ttl type priority content` (`-`: none), sorted; but
 * the test primaries' apex NS record (`ns.primary.test`), which every transferred zone must have.
 */
export async function heldRecords(zoneId: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT name, type, content, priority, ttl FROM dns_records WHERE zone_id = ?1
       AND NOT (type = 'NS' AND content = 'ns.primary.test')`
  )
    .bind(zoneId)
    .all<{ name: string; type: string; content: string; priority: number | null; ttl: number }>()
  return results.map((r) => `${r.name} ${r.ttl} ${r.type} ${r.priority ?? '-'} ${r.content}`).sort()
}
