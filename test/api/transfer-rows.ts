/**
 * Zone-transfer settings made through the secondary-DNS API (TSIG key, peer, ACL, the zone's
 * outgoing settings), as a user makes them.
 */
import { expect } from 'vitest'
import { api } from './helpers.ts'

export interface OutgoingRows {
  zoneId: string
  zoneName: string
  accountId: string
  enabled?: boolean
  acl?: string
  peer?: { ip: string | null; port?: number; key?: { name: string; algo: string; secret: string } }
}

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api(method, path, body)
  expect(res.body.errors, `${method} ${path}`).toEqual([])
  return res.body.result
}

/** The account's key of that name, made, or updated to this algorithm and secret. */
async function tsigKey(accountId: string, key: { name: string; algo: string; secret: string }) {
  const path = `/accounts/${accountId}/secondary_dns/tsigs`
  const found = ((await ok('GET', path)) as any[]).find((k) => k.name === key.name)
  if (!found) return (await ok('POST', path, key)).id as string
  await ok('PUT', `${path}/${found.id}`, key)
  return found.id as string
}

export async function configureOutgoing(rows: OutgoingRows): Promise<{ peerId: string | null }> {
  let peerId: string | null = null
  if (rows.peer) {
    const peers = `/accounts/${rows.accountId}/secondary_dns/peers`
    peerId = (await ok('POST', peers, { name: `peer-${crypto.randomUUID().slice(0, 6)}` })).id
    const tsigId = rows.peer.key ? await tsigKey(rows.accountId, rows.peer.key) : null
    await ok('PUT', `${peers}/${peerId}`, {
      name: 'peer',
      ...(rows.peer.ip ? { ip: rows.peer.ip } : {}),
      ...(rows.peer.ip && rows.peer.port ? { port: rows.peer.port } : {}),
      ...(tsigId ? { tsig_id: tsigId } : {}),
    })
  }
  if (rows.acl)
    await ok('POST', `/accounts/${rows.accountId}/secondary_dns/acls`, {
      name: `acl-${rows.acl}`,
      ip_range: rows.acl,
    })
  const outgoing = `/zones/${rows.zoneId}/secondary_dns/outgoing`
  await ok('POST', outgoing, { name: rows.zoneName, peers: peerId ? [peerId] : [] })
  await ok('POST', `${outgoing}/${rows.enabled === false ? 'disable' : 'enable'}`)
  return { peerId }
}
