/**
 * Transfer requests a DNS front received over UDP (`x-edgedns-client-transport: udp`): an AXFR is
 * FORMERR and an IXFR, whatever its serial, gets the single current SOA, which sends the client to
 * TCP; both signed when the request was, as over TCP.
 */
import { decodeMessage } from '../../packages/dns-wire/src/index.ts'
import { TsigStreamVerifier } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { api } from './helpers.ts'
import {
  KEY,
  messagesOf,
  now,
  relay,
  serialOf,
  signed,
  zoneWithTransfers,
} from './transfer-relay.ts'

const UDP = { 'x-edgedns-client-transport': 'udp' }

async function overUdp(request: { message: Uint8Array; mac: Uint8Array }) {
  const messages = await messagesOf(await relay(request.message, '192.0.2.10', UDP))
  expect(messages).toHaveLength(1)
  const verifier = new TsigStreamVerifier(KEY, request.mac, now)
  const reply = decodeMessage(await verifier.next(messages[0]!))
  verifier.finish()
  return reply
}

describe('transfer requests relayed from UDP', () => {
  it('an AXFR is FORMERR, signed', async () => {
    const zone = await zoneWithTransfers()
    const reply = await overUdp(await signed(zone.name, 'AXFR'))
    expect(reply).toMatchObject({ rcode: 1, answer: [] })
  })

  it('an IXFR from an older serial gets the single current SOA, signed', async () => {
    const zone = await zoneWithTransfers()
    const old = await serialOf(zone.id)
    await api('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: `udp.${zone.name}`,
      content: '192.0.2.1',
    })
    const current = await serialOf(zone.id)
    const reply = await overUdp(await signed(zone.name, 'IXFR', KEY, `${zone.name} ${old}`))
    expect(reply.rcode).toBe(0)
    expect(reply.answer.map((rr) => [rr.typeCode, rr.data.split(' ')[2]])).toEqual([
      [6, String(current)],
    ])
  })
})
