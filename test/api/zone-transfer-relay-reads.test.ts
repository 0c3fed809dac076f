/**
 * What one relayed query costs the database: a secondary's signed SOA check is one D1 round trip
 * (the directory's lookup of the name, the zone, its outgoing settings, the peers' keys and the
 * ACLs in one batch), and so is a refused AXFR: no record is read before the client is allowed.
 * An allowed AXFR of a zone that fits one page reads it in one more, with the zone's change
 * sequence; a zone of several pages reads the further pages and then checks the change sequence
 * again; an IXFR from an older serial reads its difference in one more.
 */
import { env } from 'cloudflare:workers'
import { encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { signMessage, transferRequest } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { answerRelayedQuery } from '../../workers/api/src/transfers/outgoing-transfer.ts'
import { countingD1 } from './counting-d1.ts'
import { asLargeRequest } from '../../workers/api/src/transfers/packed-axfrs.ts'
import { DEV_TOKEN, api, request } from './helpers.ts'
import { seedRecords } from './seed-records.ts'
import { KEY, OTHER, zoneWithTransfers } from './transfer-relay.ts'

/**
 * The relay's answer to a `type` query for `name` signed with `key` (an IXFR from serial
 * `ixfrFrom`) from `client`, read to its end: its RCODE, size, whether it completed, and the round
 * trips.
 */
async function relayCounted(
  name: string,
  type: 'SOA' | 'AXFR' | 'IXFR',
  {
    pageSize,
    ixfrFrom,
    client = '192.0.2.10',
    key = KEY,
  }: { pageSize?: number; ixfrFrom?: number; client?: string; key?: typeof KEY } = {}
): Promise<{
  rcode: number
  bytes: number
  completed: boolean
  trips: number
  rowsRead: number
}> {
  const counting = countingD1(env.DB)
  const time = Math.floor(Date.now() / 1000)
  const signed =
    type === 'IXFR'
      ? await transferRequest({
          zone: name,
          kind: 'IXFR',
          id: 9,
          soa: `ns.${name} admin.${name} ${ixfrFrom} 0 0 0 0`,
          key,
          now: time,
        })
      : await signMessage(encodeQuery(name, type, { id: 9, rd: false }), key, { time })
  const answer = await answerRelayedQuery({ ...env, DB: counting.db } as never, {
    query: signed.message,
    client,
    now: Math.floor(Date.now() / 1000),
    mayRelay: () => true,
    ...(pageSize ? { pageSize } : {}),
  })
  const bytes = new Uint8Array(await new Response(answer.body).arrayBuffer())
  const completed = await answer.completed
  // The first message after its two-octet length: RCODE is the low four bits of its fourth octet.
  return {
    rcode: bytes[5]! & 0x0f,
    bytes: bytes.length,
    completed,
    trips: counting.trips,
    rowsRead: counting.batchRowsRead,
  }
}

describe('the transfer relay reads D1 in as few round trips as it can', () => {
  it('answers a signed SOA check in one round trip', async () => {
    const zone = await zoneWithTransfers()
    const answer = await relayCounted(zone.name, 'SOA')
    expect(answer.rcode).toBe(0)
    expect(answer.completed).toBe(true)
    expect(answer.trips).toBe(1)
  })

  it('refuses an AXFR in one round trip, reading no record: an address it does not allow, a bad key', async () => {
    const zone = await zoneWithTransfers()
    await seedRecords(zone.id, zone.name, 500)
    const outside = await relayCounted(zone.name, 'AXFR', { client: '203.0.113.66' })
    expect(outside.rcode).toBe(5) // REFUSED
    const badKey = await relayCounted(zone.name, 'AXFR', { key: OTHER })
    expect(badKey.rcode).toBe(9) // NOTAUTH (BADSIG)
    for (const refused of [outside, badKey]) {
      expect(refused.completed).toBe(false)
      expect(refused.trips).toBe(1)
      // The zone row, its settings, peers, ACL and directory entry: none of its 500 records.
      expect(refused.rowsRead).toBeLessThan(20)
    }
  })

  it('transfers a zone that fits one page in two round trips', async () => {
    const zone = await zoneWithTransfers()
    await seedRecords(zone.id, zone.name, 5)
    const answer = await relayCounted(zone.name, 'AXFR')
    expect(answer.rcode).toBe(0)
    expect(answer.completed).toBe(true)
    expect(answer.trips).toBe(2)
  })

  it('answers an IXFR from an older serial in two round trips', async () => {
    const zone = await zoneWithTransfers()
    await seedRecords(zone.id, zone.name, 5)
    const { serial } = (await env.DB.prepare('SELECT serial FROM zones WHERE id = ?1')
      .bind(zone.id)
      .first<{ serial: number }>())!
    await api('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: `ixfr.${zone.name}`,
      content: '192.0.2.9',
      ttl: 300,
    })
    // The zone with its settings in one batch, then the change steps (the serial's entry, the
    // entries after it, the records they touched and the change sequence) in one more.
    const answer = await relayCounted(zone.name, 'IXFR', { ixfrFrom: serial })
    expect(answer.rcode).toBe(0)
    expect(answer.completed).toBe(true)
    expect(answer.trips).toBe(2)
  })

  it('answers the next AXFR of an unchanged zone in one round trip; a change reads the zone again', async () => {
    const zone = await zoneWithTransfers()
    // Enough records for an answer worth keeping (over 64 KiB).
    await seedRecords(zone.id, zone.name, 3_000)
    const first = await relayCounted(zone.name, 'AXFR', { pageSize: 1_000 })
    expect(first.trips).toBeGreaterThan(2)
    // The zone with its settings, then the packed answer of that version (transfers/packed-axfrs.ts).
    const again = await relayCounted(zone.name, 'AXFR', { pageSize: 1_000 })
    expect(again).toMatchObject({ rcode: 0, completed: true, trips: 1, bytes: first.bytes })
    await api('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: `after.${zone.name}`,
      content: '192.0.2.77',
    })
    const changed = await relayCounted(zone.name, 'AXFR', { pageSize: 1_000 })
    expect(changed).toMatchObject({ rcode: 0, completed: true, trips: first.trips })
    expect(changed.bytes).toBeGreaterThan(first.bytes)
    // A change of the zone's settings alone (its NS TTL, in every default NS record) is another version.
    const patched = await api('PATCH', `/zones/${zone.id}/dns_settings`, { ns_ttl: 7200 })
    expect(patched.status).toBe(200)
    expect((await relayCounted(zone.name, 'AXFR', { pageSize: 1_000 })).trips).toBe(first.trips)
  })

  it('keeps no packed answer while a large request runs, and lets go of them when one starts', async () => {
    const zone = await zoneWithTransfers()
    await seedRecords(zone.id, zone.name, 3_000)
    const read = async () => (await relayCounted(zone.name, 'AXFR')).trips
    await asLargeRequest(async () => {
      expect(await read()).toBe(2)
      expect(await read()).toBe(2)
    })
    expect(await read()).toBe(2)
    expect(await read()).toBe(1)
    // An authenticated request with a body over a mebibyte (refused as malformed: the answers go
    // before its body is read), and one whose length is not known in advance.
    const large = 'x'.repeat(1_100_000)
    for (const body of [large, new Blob([large]).stream()]) {
      const res = await request('POST', `/zones/${zone.id}/dns_records/batch`, body, {
        authorization: `Bearer ${DEV_TOKEN}`,
        'content-type': 'application/json',
      })
      expect(res.status).toBe(400)
      expect(await read()).toBe(2)
      expect(await read()).toBe(1)
    }
  })

  it('reads a larger zone page by page, then checks its change sequence', async () => {
    const zone = await zoneWithTransfers()
    await seedRecords(zone.id, zone.name, 5)
    // Pages of 2: the settings, the first page with the change sequence, two more (the last one
    // short), the change-sequence check.
    const answer = await relayCounted(zone.name, 'AXFR', { pageSize: 2 })
    expect(answer.rcode).toBe(0)
    expect(answer.completed).toBe(true)
    expect(answer.trips).toBe(5)
  })
})
