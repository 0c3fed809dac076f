/**
 * A relayed query with EDNS gets an OPT record back: a secondary's signed SOA check, and the first
 * message of an AXFR; the answers are signed as without EDNS.
 */
import { decodeMessage, encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { signMessage, TsigStreamVerifier } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { KEY, messagesOf, now, relay, zoneWithTransfers } from './transfer-relay.ts'

async function relayedWithEdns(name: string, type: 'SOA' | 'AXFR') {
  const query = encodeQuery(name, type, { id: 7, rd: false, edns: { payload: 1232 } })
  const request = await signMessage(query, KEY, { time: now() })
  const verifier = new TsigStreamVerifier(KEY, request.mac, now)
  const messages = []
  for (const m of await messagesOf(await relay(request.message)))
    messages.push(decodeMessage(await verifier.next(m)))
  verifier.finish()
  return messages
}

describe('EDNS in relayed queries', () => {
  it.each(['SOA', 'AXFR'] as const)('a signed %s with EDNS is answered with OPT', async (type) => {
    const zone = await zoneWithTransfers()
    const [first] = await relayedWithEdns(zone.name, type)
    expect(first?.rcode).toBe(0)
    expect(first?.answer[0]?.typeCode).toBe(6)
    expect(first?.opt).not.toBeNull()
  })
})
