import { env } from 'cloudflare:workers'
import { decodeMessage, encodeResponse } from '@edgedns/dns-wire'
import { OPCODE_NOTIFY, parseTsigKey, splitTsig, verifyRequest } from '@edgedns/zone-transfer'
import { describe, expect, it } from 'vitest'
import { createZone, DEFAULT_ACCOUNT } from '../../../../test/api/helpers.ts'
import { configureOutgoing } from '../../../../test/api/transfer-rows.ts'
import { notifyPeers } from './notify.ts'
import { readOutgoingZone } from './relayed-zone.ts'
import { countingD1 } from '../../../../test/api/counting-d1.ts'

const SECRET = 'c2VjcmV0LWZvci10aGUtbm90aWZ5LXRlc3QtMzItb2N0ZXRz'
const KEY = parseTsigKey(`hmac-sha256:notify-key:${SECRET}`)

/** A NOTIFY response to `request` with `rcode`. */
function reply(request: Uint8Array, rcode: number): Uint8Array {
  const m = decodeMessage(splitTsig(request).unsigned)
  const q = m.question[0]!
  return encodeResponse({
    id: m.id,
    opcode: OPCODE_NOTIFY,
    rcode,
    aa: true,
    question: { name: q.name, type: q.typeCode, class: q.class },
  })
}

async function zoneWithPeer(ip: string | null, enabled = true) {
  const zone = await createZone('notify')
  await configureOutgoing({
    zoneId: zone.id,
    zoneName: zone.name,
    accountId: DEFAULT_ACCOUNT,
    enabled,
    peer: { ip, port: 5353, key: { name: 'notify-key', algo: 'hmac-sha256.', secret: SECRET } },
  })
  return zone
}

const fast = { timeoutMs: 200, retryMs: 1 }

describe('NOTIFY to outgoing peers', () => {
  it("sends the zone's SOA to the peer's address and port, signed with its key, and records checked_on", async () => {
    const zone = await zoneWithPeer('198.51.100.7')
    const sent: { host: string; port: number; request: Uint8Array }[] = []
    const outcomes = await notifyPeers(env.DB, zone.id, {
      ...fast,
      exchange: async (host, request, _ms, port) => {
        sent.push({ host, port, request })
        return reply(request, 0)
      },
    })
    expect(outcomes).toEqual([expect.objectContaining({ ok: true, detail: 'NOERROR' })])
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ host: '198.51.100.7', port: 5353 })
    const verdict = await verifyRequest(sent[0]!.request, [KEY], Math.floor(Date.now() / 1000))
    expect(verdict.status).toBe('ok')
    const m = decodeMessage(splitTsig(sent[0]!.request).unsigned)
    expect(m.opcode).toBe(OPCODE_NOTIFY)
    expect(m.answer[0]!.typeCode).toBe(6)
    const row = await env.DB.prepare(
      'SELECT checked_on FROM zone_transfers_outgoing WHERE zone_id = ?1'
    )
      .bind(zone.id)
      .first<{ checked_on: string | null }>()
    expect(row?.checked_on).toMatch(/^\d{4}-/)
  })

  it('reads the zone, its outgoing settings and its peers with their keys in one round trip', async () => {
    const zone = await zoneWithPeer('198.51.100.9')
    const counting = countingD1(env.DB)
    const outcomes = await notifyPeers(counting.db, zone.id, {
      ...fast,
      exchange: async (_host, request) => reply(request, 0),
    })
    expect(outcomes).toEqual([expect.objectContaining({ ok: true })])
    // One batch of reads, then the checked_on write.
    expect(counting.trips).toBe(2)
  })

  it('sends a round from the outgoing read already under way, without reading D1 again before it', async () => {
    const zone = await zoneWithPeer('198.51.100.10')
    const counting = countingD1(env.DB)
    const prefetched = readOutgoingZone(env.DB, zone.id)
    const sent: Uint8Array[] = []
    const outcomes = await notifyPeers(
      counting.db,
      zone.id,
      { ...fast, exchange: async (_host, request) => (sent.push(request), reply(request, 0)) },
      prefetched
    )
    expect(outcomes).toEqual([expect.objectContaining({ ok: true })])
    expect(sent).toHaveLength(1)
    // Only the checked_on write.
    expect(counting.trips).toBe(1)
  })

  it('reads the outgoing settings itself when the read under way failed', async () => {
    const zone = await zoneWithPeer('198.51.100.11')
    const outcomes = await notifyPeers(
      env.DB,
      zone.id,
      { ...fast, exchange: async (_host, request) => reply(request, 0) },
      Promise.reject(new Error('D1 unavailable'))
    )
    expect(outcomes).toEqual([expect.objectContaining({ ok: true })])
  })

  it('hands the checked_on write to the stamp hook instead of writing it before the round resolves', async () => {
    const zone = await zoneWithPeer('198.51.100.12')
    let write: (() => Promise<unknown>) | undefined
    const outcomes = await notifyPeers(env.DB, zone.id, {
      ...fast,
      exchange: async (_host, request) => reply(request, 0),
      stamp: (w) => (write = w),
    })
    expect(outcomes).toEqual([expect.objectContaining({ ok: true })])
    const checkedOn = () =>
      env.DB.prepare('SELECT checked_on FROM zone_transfers_outgoing WHERE zone_id = ?1')
        .bind(zone.id)
        .first<{ checked_on: string | null }>()
    expect((await checkedOn())?.checked_on).toBeNull()
    await write!()
    expect((await checkedOn())?.checked_on).toMatch(/^\d{4}-/)
  })

  it('retries a peer that does not answer, a bounded number of times, and never throws', async () => {
    const zone = await zoneWithPeer('198.51.100.8')
    let tries = 0
    const outcomes = await notifyPeers(env.DB, zone.id, {
      ...fast,
      attempts: 3,
      exchange: async () => {
        tries++
        throw new Error('connection refused')
      },
    })
    expect(tries).toBe(3)
    expect(outcomes).toEqual([expect.objectContaining({ ok: false, detail: 'connection refused' })])
  })

  it('does not retry a refusal, and skips peers without an address and disabled zones', async () => {
    const zone = await zoneWithPeer('198.51.100.9')
    let tries = 0
    const refused = await notifyPeers(env.DB, zone.id, {
      ...fast,
      exchange: async (_h, request) => (tries++, reply(request, 5)),
    })
    expect(tries).toBe(1)
    expect(refused).toEqual([expect.objectContaining({ ok: false, detail: 'REFUSED' })])
    const never = async (): Promise<Uint8Array> => {
      throw new Error('no NOTIFY expected')
    }
    const noAddress = await zoneWithPeer(null)
    expect(await notifyPeers(env.DB, noAddress.id, { ...fast, exchange: never })).toEqual([])
    const disabled = await zoneWithPeer('198.51.100.10', false)
    expect(await notifyPeers(env.DB, disabled.id, { ...fast, exchange: never })).toEqual([])
  })
})
