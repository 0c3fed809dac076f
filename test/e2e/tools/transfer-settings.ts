/**
 * Zone-transfer settings of the e2e stack, made through the secondary-DNS API as a user would: a
 * TSIG key, a peer (address, port, key), and a zone's outgoing (enabled) or incoming settings.
 */
import { stackApi } from './stack-api.ts'

export interface PeerSpec {
  accountId: string
  /** Peer name (shown in the API). */
  name: string
  ip: string
  port: number
  ixfr?: boolean
  /** The TSIG key the peer signs with: its name (unique in the account) and base64 secret. */
  tsig?: { name: string; secret: string }
}

/** The account's key named `name` with this secret (made, or the one already there if equal). */
async function tsigKey(accountId: string, name: string, secret: string): Promise<string> {
  const path = `/accounts/${accountId}/secondary_dns/tsigs`
  const found = (await stackApi('GET', path)).result.find((k: any) => k.name === name)
  if (found) {
    if (found.secret !== secret) throw new Error(`TSIG key ${name} exists with another secret`)
    return found.id
  }
  return (await stackApi('POST', path, { name, algo: 'hmac-sha256.', secret })).result.id
}

/** A peer of the account, with its key when `tsig` is given; returns its id. */
export async function makePeer(spec: PeerSpec): Promise<string> {
  const path = `/accounts/${spec.accountId}/secondary_dns/peers`
  const id = (await stackApi('POST', path, { name: spec.name })).result.id as string
  const tsigId = spec.tsig ? await tsigKey(spec.accountId, spec.tsig.name, spec.tsig.secret) : null
  await stackApi('PUT', `${path}/${id}`, {
    name: spec.name,
    ip: spec.ip,
    port: spec.port,
    ixfr_enable: spec.ixfr ?? false,
    ...(tsigId ? { tsig_id: tsigId } : {}),
  })
  return id
}

/** Outgoing transfers of the zone to these peers, enabled. */
export async function enableOutgoing(zoneId: string, zoneName: string, peers: string[]) {
  await stackApi('POST', `/zones/${zoneId}/secondary_dns/outgoing`, { name: zoneName, peers })
  await stackApi('POST', `/zones/${zoneId}/secondary_dns/outgoing/enable`)
}

/** Incoming transfers of the (secondary) zone from these primaries, made or replaced. */
export async function setIncoming(
  zoneId: string,
  zoneName: string,
  peers: string[],
  autoRefreshSeconds = 86400
): Promise<void> {
  const path = `/zones/${zoneId}/secondary_dns/incoming`
  const body = { name: zoneName, peers, auto_refresh_seconds: autoRefreshSeconds }
  const has = await stackApi('GET', path).then(
    () => true,
    () => false
  )
  await stackApi(has ? 'PUT' : 'POST', path, body)
}
