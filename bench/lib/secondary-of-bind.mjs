/**
 * @module One of our secondary zones of a BIND primary, for the transfer tools: the primary (its
 * zone file written by the caller) behind a DNS front that relays transfers and NOTIFYs to the
 * stack; the zone made, its primary a peer with the transfer key (IXFR asked), its incoming
 * settings written; resolved once DoH answers `lastName`.
 */
import path from 'node:path'
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
import { XFR_KEY, startPrimary } from './named-xfr.mjs'
import { pollDoh } from './propagation.mjs'
import { makePeer } from './transfer-settings.mjs'

/**
 * `primary`: startPrimary's options besides dir, zone and file (`notifyFront`: NOTIFY the front).
 * Pushes what it starts onto `stopping`; returns { front, primary, zoneId, loadMs }.
 */
export async function secondaryOfBind({
  api,
  stack,
  dir,
  zone,
  file,
  lastName,
  primary,
  stopping,
}) {
  const front = await startDnsFront({
    target: stack.url,
    transfer: { token: stack.token },
    notify: { token: stack.token },
  })
  stopping.push({ stop: async () => front.close() })
  const { notifyFront, ...options } = primary
  const named = await startPrimary({
    dir: path.join(dir, 'primary'),
    zone,
    file,
    ...(notifyFront ? { alsoNotify: [front.port] } : {}),
    ...options,
  })
  stopping.push(named)
  const [account] = (await api.call('GET', '/accounts')).result
  const made = await api.call('POST', '/zones', {
    name: zone,
    account: { id: account.id },
    type: 'secondary',
  })
  const peer = await makePeer(api, account.id, {
    name: `${zone}-primary`,
    port: named.port,
    ixfr: true,
    key: XFR_KEY,
  })
  const t0 = performance.now()
  await api.call('POST', `/zones/${made.result.id}/secondary_dns/incoming`, {
    name: zone,
    peers: [peer],
    auto_refresh_seconds: 86400,
  })
  await pollDoh(stack.dohUrl, lastName, (a) => a.data.length > 0, {
    everyMs: 50,
    timeoutMs: 900_000,
  })
  return { front, primary: named, zoneId: made.result.id, loadMs: performance.now() - t0 }
}
