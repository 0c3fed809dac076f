/**
 * What one relayed query costs the database: a secondary's signed SOA check and the AXFR of a zone
 * that fits one page are each one D1 round trip (the directory's lookup of the name, the zone, its
 * outgoing settings, the peers' keys, the ACLs and the records in one batch); a zone of several
 * pages reads the further pages and then checks the zone's change sequence; an IXFR from an older
 * serial reads its difference in one more.
 */
import { env } from 'cloudflare:workers'
import { encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { signMessage, transferRequest } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { answerRelayedQuery } from '../../workers/api/src/transfers/outgoing-transfer.ts'
import { countingD1 } from './counting-d1.ts'
import { api } from './helpers.ts'
import { seedRecords } from './seed-records.ts'
import { KEY, zoneWithTransfers } from './transfer-relay.ts'

/**
 * The relay's answer to a signed `type` query for `name` (an IXFR from serial `ixfrFrom`), read to
 * its end, and the round trips.
 */
async function relayCounted(
  name: string,
  type: 'SOA' | 'AXFR' | 'IXFR',
  pageSize?: number,
  ixfrFrom?: number
): Promise<{ rcode: number; bytes: number; trips: number }> {
  const counting = countingD1(env.DB)
  const time = Math.floor(Date.now() / 1000)
  const signed =
    type === 'IXFR'
      ? await transferRequest({
          zone: name,
          kind: 'IXFR',
          id: 9,
          soa: `ns.${name} admin.${name} ${ixfrFrom} 0 0 0 0`,
          key: KEY,
          now: time,
        })
      : await signMessage(encodeQuery(name, type, { id: 9, rd: false }), KEY, { time })
  const answer = await answerRelayedQuery({ ...env, DB: counting.db } as never, {
    query: signed.message,
    client: '192.0.2.10',
    now: Math.floor(Date.now() / 1000),
    mayRelay: () => true,
    ...(pageSize ? { pageSize } : {}),
  })
  const bytes = new Uint8Array(await new Response(answer.body).arrayBuffer())
  expect(await answer.completed).toBe(true)
  // The first message after its two-octet length: RCODE is the low four bits of its fourth octet.
  return { rcode: bytes[5]! & 0x0f, bytes: bytes.length, trips: counting.trips }
}

describe('the transfer relay reads D1 in as few round trips as it can', () => {
  it('answers a signed SOA check in one round trip', async () => {
    const zone = await zoneWithTransfers()
    const answer = await relayCounted(zone.name, 'SOA')
    expect(answer.rcode).toBe(0)
    expect(answer.trips).toBe(1)
  })

  it('transfers a zone that fits one page in one round trip', async () => {
    const zone = await zoneWithTransfers()
    await seedRecords(zone.id, zone.name, 5)
    const answer = await relayCounted(zone.name, 'AXFR')
    expect(answer.rcode).toBe(0)
    expect(answer.trips).toBe(1)
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
    const answer = await relayCounted(zone.name, 'IXFR', undefined, serial)
    expect(answer.rcode).toBe(0)
    expect(answer.trips).toBe(2)
  })

  it('reads a larger zone page by page, then checks its change sequence', async () => {
    const zone = await zoneWithTransfers()
    await seedRecords(zone.id, zone.name, 5)
    // Pages of 2: the batch's first, two more (the last one short), the change-sequence check.
    const answer = await relayCounted(zone.name, 'AXFR', 2)
    expect(answer.rcode).toBe(0)
    expect(answer.trips).toBe(4)
  })
})
