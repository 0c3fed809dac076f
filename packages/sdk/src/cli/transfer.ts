/**
 * @module The CLI's `transfer` commands: how a zone's transfers stand (a secondary zone's copy and
 * checks, or a primary zone's outgoing transfers), an AXFR now, a NOTIFY now.
 */
import type { EdgeDns } from '../client.ts'
import { EdgeDnsError } from '../errors.ts'
import type { IncomingTransfers, OutgoingTransfers, Zone } from '../types.ts'

interface Out {
  write(s: string): unknown
}

/** The settings, or null where the zone has none (404). */
async function orNone<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read
  } catch (e) {
    if (e instanceof EdgeDnsError && e.status === 404) return null
    throw e
  }
}

/** Peer ids with their names, where the token may list the account's peers; else the ids. */
async function peerNames(client: EdgeDns, zone: Zone, ids: string[]): Promise<string[]> {
  const peers = await client.transfers.peers.list(zone.account.id).catch(() => [])
  const byId = new Map(peers.map((p) => [p.id, p]))
  return ids.map((id) => {
    const p = byId.get(id)
    if (!p) return id
    const at = p.ip ? ` ${p.ip}${p.port && p.port !== 53 ? `#${p.port}` : ''}` : ''
    return `${p.name}${at}`
  })
}

function secondaryLines(zone: Zone, s: IncomingTransfers, primaries: string[]): string[] {
  const serial = s.soa_serial === undefined ? 'no copy held' : `serial ${s.soa_serial}`
  const lines = [
    `${zone.name}: secondary zone, ${s.serving ? 'serving' : 'not serving'}, ${serial}`,
    `  primaries: ${primaries.join(', ') || 'none'}`,
    `  refresh: at least every ${s.auto_refresh_seconds} s`,
  ]
  if (s.checked_time) lines.push(`  last good check: ${s.checked_time}`)
  if (s.next_check_time) lines.push(`  next check: ${s.next_check_time}`)
  if (s.expires_time) lines.push(`  expires: ${s.expires_time}`)
  if (s.failed_checks) lines.push(`  failed checks: ${s.failed_checks}: ${s.last_error ?? ''}`)
  for (const k of s.skipped_records ?? [])
    lines.push(`  not served: ${k.count} ${k.type} (${k.reason})`)
  return lines
}

function primaryLines(
  zone: Zone,
  s: OutgoingTransfers | null,
  status: string,
  secondaries: string[]
): string[] {
  if (!s) return [`${zone.name}: ${zone.type} zone, no outgoing transfers`]
  const lines = [
    `${zone.name}: ${zone.type} zone, outgoing transfers ${status}, serial ${s.soa_serial}`,
    `  secondaries: ${secondaries.join(', ') || 'none'}`,
  ]
  if (s.last_transferred_time) lines.push(`  last transferred: ${s.last_transferred_time}`)
  return lines
}

/** `transfer status <zone>`: the lines, or with `json` the settings as the API answers them. */
export async function transferStatus(
  client: EdgeDns,
  zoneId: string,
  json: boolean,
  out: Out
): Promise<void> {
  const zone = await client.zones.get(zoneId)
  const zoneFields = { id: zone.id, name: zone.name, type: zone.type }
  if (zone.type === 'secondary') {
    const incoming = await orNone(client.transfers.incoming.get(zone.id))
    if (json) return void out.write(`${JSON.stringify({ zone: zoneFields, incoming })}\n`)
    const lines = incoming
      ? secondaryLines(zone, incoming, await peerNames(client, zone, incoming.peers))
      : [`${zone.name}: secondary zone without incoming settings (no primary to transfer from)`]
    return void out.write(`${lines.join('\n')}\n`)
  }
  const outgoing = await orNone(client.transfers.outgoing.get(zone.id))
  const status = await client.transfers.outgoing.status(zone.id)
  if (json) return void out.write(`${JSON.stringify({ zone: zoneFields, outgoing, status })}\n`)
  const secondaries = outgoing ? await peerNames(client, zone, outgoing.peers) : []
  out.write(`${primaryLines(zone, outgoing, status, secondaries).join('\n')}\n`)
}
