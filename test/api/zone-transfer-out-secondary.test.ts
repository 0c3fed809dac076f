/**
 * A secondary zone transferred onward (a primary zone with outgoing transfers made secondary, a
 * tier of secondaries behind it): after an IXFR into it, or an AXFR applied as its difference
 * from the copy held, an IXFR out of it is the difference from the change log, starting from
 * exactly the SOA the client holds (the primary may have changed more of its SOA than the serial).
 */
import { decodeMessage, type MessageRR } from '../../packages/dns-wire/src/index.ts'
import { TsigStreamVerifier } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { a, rr, transfer, type Step } from '../../workers/api/src/transfers/ixfr-test-transfers.ts'
import { api } from './helpers.ts'
import { KEY, messagesOf, now, relay, signed, zoneWithTransfers } from './transfer-relay.ts'

/** The records of an IXFR (or AXFR) answer from `serial`, each `SOA <rdata>` or `<label> <rdata>`. */
async function ixfrFrom(zoneName: string, serial: number): Promise<string[]> {
  const request = await signed(zoneName, 'IXFR', KEY, `${zoneName} ${serial}`)
  const messages = await messagesOf(await relay(request.message))
  const verifier = new TsigStreamVerifier(KEY, request.mac, now)
  const rrs: MessageRR[] = []
  for (const m of messages) rrs.push(...decodeMessage(await verifier.next(m)).answer)
  verifier.finish()
  return rrs.map((r) => (r.typeCode === 6 ? `SOA ${r.data}` : `${r.name.split('.')[0]} ${r.data}`))
}

/** The primary's SOA at `serial` with `refresh` and primary name server `mname`. */
const primarySoa = (zone: string, serial: number, refresh: number, mname: string): MessageRR =>
  rr(zone, '@', 'SOA', 6, `${mname}. hostmaster.primary.test. ${serial} ${refresh} 600 86400 300`)
const soaLine = (mname: string, serial: number, refresh: number) =>
  `SOA ${mname}. hostmaster.primary.test. ${serial} ${refresh} 600 86400 300`

describe('IXFR out of a secondary zone', () => {
  it('answers from the change log its IXFRs in wrote, from the SOA the client holds', async () => {
    // Outgoing transfers are configured on primary zones; a zone made secondary keeps serving them.
    const zone = await zoneWithTransfers()
    const made = await api('PATCH', `/zones/${zone.id}`, { type: 'secondary' })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const z = zone.name
    await transfer(
      zone,
      [0, 1, 2].map((i): Step => ['add', a(z, i)]),
      10,
      true
    )
    // The primary's next version moves its SOA's refresh and name server as well as the serial.
    await transfer(
      zone,
      [
        ['delete', a(z, 1)],
        ['add', a(z, 100)],
      ],
      11,
      false,
      primarySoa(z, 11, 7200, 'ns2.primary.test')
    )
    await transfer(
      zone,
      [['add', a(z, 101)]],
      12,
      false,
      primarySoa(z, 12, 900, 'ns2.primary.test')
    )
    const current = soaLine('ns2.primary.test', 12, 900)

    expect(await ixfrFrom(z, 10)).toEqual([
      current,
      soaLine('ns.primary.test', 10, 3600),
      'r-1 10.0.0.1',
      current,
      'r-100 10.0.0.100',
      'r-101 10.0.0.101',
      current,
    ])
    expect(await ixfrFrom(z, 11)).toEqual([
      current,
      soaLine('ns2.primary.test', 11, 7200),
      current,
      'r-101 10.0.0.101',
      current,
    ])
    expect(await ixfrFrom(z, 12)).toEqual([current])

    // An AXFR into the zone is applied as its difference from the copy: an IXFR across it is
    // that difference too.
    await transfer(
      zone,
      [0, 2, 5, 100, 101].map((i): Step => ['add', a(z, i)]),
      13,
      true,
      primarySoa(z, 13, 900, 'ns2.primary.test')
    )
    const at13 = soaLine('ns2.primary.test', 13, 900)
    expect(await ixfrFrom(z, 12)).toEqual([at13, current, at13, 'r-5 10.0.0.5', at13])
  })
})
