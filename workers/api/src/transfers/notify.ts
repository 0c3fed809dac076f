/**
 * @module NOTIFY (RFC 1996) to a zone's outgoing peers: after a build pass makes a new serial
 * visible, and on `force_notify`. Each peer with an address gets the zone's SOA over TCP
 * (`connect()`), TSIG-signed with its key when it has one, a few attempts each within a time
 * limit; failures are logged, never thrown. The round is recorded in `checked_on`.
 */
import { notifyMessage, parseNotifyReply, signMessage } from '@edgedns/zone-transfer'
import { nowIso } from '../http/ids.ts'
import { tcpExchange } from '../zones/tcp-exchange.ts'
import { zoneSoa } from './outgoing-transfer.ts'
import { readOutgoingZone, type RelayedZone } from './relayed-zone.ts'
import type { OutgoingPeer } from './transfer-config.ts'

/** Sends one DNS message over TCP and returns the reply (`tcpExchange`'s shape). */
type Exchange = (
  host: string,
  message: Uint8Array,
  timeoutMs: number,
  port: number
) => Promise<Uint8Array>

export interface NotifyOptions {
  exchange?: Exchange
  /** Tries per peer. */
  attempts?: number
  /** Time limit of one try. */
  timeoutMs?: number
  /** Pause before a retry (doubled each time). */
  retryMs?: number
  /**
   * Writes the round's `checked_on` (the write as a function): without it the round writes it
   * before it resolves. The builder writes it a while later in the background, so the write is
   * not on the database while the secondaries' SOA checks and transfers the round started read it.
   */
  stamp?: (write: () => Promise<unknown>) => void
}

/** The options one peer's NOTIFY uses, all set. */
export type PeerOptions = Required<Omit<NotifyOptions, 'stamp'>>

export interface NotifyOutcome {
  peer: string
  ok: boolean
  detail: string
}

const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED']

/** One peer's NOTIFY of `soa`: a few attempts, a refusal not retried. Never rejects. */
export async function notifyPeer(
  peer: OutgoingPeer & { ip: string },
  soa: ReturnType<typeof zoneSoa>,
  options: PeerOptions
): Promise<NotifyOutcome> {
  let detail = ''
  for (let attempt = 0; attempt < options.attempts; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, options.retryMs * 2 ** (attempt - 1)))
    const id = crypto.getRandomValues(new Uint16Array(1))[0]!
    let message = notifyMessage(id, soa)
    if (peer.key) {
      message = (await signMessage(message, peer.key, { time: Math.floor(Date.now() / 1000) }))
        .message
    }
    try {
      const reply = parseNotifyReply(
        await options.exchange(peer.ip, message, options.timeoutMs, peer.port)
      )
      if (reply.id !== id) throw new Error('the reply has another ID')
      if (reply.rcode === 0) return { peer: peer.name, ok: true, detail: 'NOERROR' }
      // A refusal is an answer: retrying will not change it.
      return {
        peer: peer.name,
        ok: false,
        detail: RCODE_NAMES[reply.rcode] ?? `rcode ${reply.rcode}`,
      }
    } catch (err) {
      detail = err instanceof Error ? err.message : String(err)
    }
  }
  return { peer: peer.name, ok: false, detail }
}

/** The options with their defaults: three tries of three seconds, one second before a retry. */
export function notifyDefaults(options: NotifyOptions = {}): PeerOptions {
  return {
    exchange: options.exchange ?? tcpExchange(),
    attempts: options.attempts ?? 3,
    timeoutMs: options.timeoutMs ?? 3_000,
    retryMs: options.retryMs ?? 1_000,
  }
}

/**
 * Sends a NOTIFY round for the zone when it has outgoing transfers enabled; resolves to what each
 * peer answered (empty when there is nothing to notify). Never rejects. `prefetched` is the
 * zone's outgoing read (`readOutgoingZone`) already under way: the builder starts it once its
 * pass has read the zone's log, so the round goes out as soon as the head is written instead of
 * one D1 round trip later; a failed prefetch is read again.
 */
export async function notifyPeers(
  db: D1Database,
  zoneId: string,
  options: NotifyOptions = {},
  prefetched?: Promise<RelayedZone | null>
): Promise<NotifyOutcome[]> {
  const opts = notifyDefaults(options)
  try {
    // The zone row, its outgoing settings and the peers with their keys: one round trip.
    const early = prefetched ? await prefetched.catch(() => undefined) : undefined
    const read = early !== undefined ? early : await readOutgoingZone(db, zoneId)
    if (!read?.config?.enabled) return []
    const { zone, config } = read
    const soa = zoneSoa(zone)
    const targets = config.peers.filter((p): p is OutgoingPeer & { ip: string } => !!p.ip)
    const outcomes = await Promise.all(targets.map((p) => notifyPeer(p, soa, opts)))
    for (const o of outcomes) {
      if (!o.ok) console.warn('NOTIFY failed', zone.name, o.peer, o.detail)
    }
    const checkedOn = nowIso()
    const write = () =>
      db
        .prepare('UPDATE zone_transfers_outgoing SET checked_on = ?1 WHERE zone_id = ?2')
        .bind(checkedOn, zone.id)
        .run()
    if (options.stamp) options.stamp(write)
    else await write()
    return outcomes
  } catch (err) {
    console.warn('NOTIFY round failed', zoneId, err)
    return []
  }
}
