import { decodeMessage, encodeQuery, type ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import {
  TsigStreamVerifier,
  parseTsigKey,
  requestQuestion,
  signMessage,
  transferMessages,
} from './index.ts'

const NOW = 1_800_000_000
const key = parseTsigKey('xfr-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')
const soa: ResponseRR = {
  name: 'big.test',
  type: 6,
  ttl: 3600,
  rdata: 'ns1.big.test. admin.big.test. 7 7200 3600 1209600 300',
}

/** A zone whose records are produced on demand, counting how many were asked for. */
function lazyZone(count: number) {
  const state = { read: 0 }
  async function* records(): AsyncGenerator<ResponseRR> {
    for (let i = 0; i < count; i++) {
      state.read++
      yield { name: `host-${i}.big.test`, type: 16, ttl: 60, rdata: `"${'x'.repeat(200)}"` }
    }
  }
  return { zone: { soa, records }, state }
}

describe('streaming a transfer', () => {
  it('packs records only as messages are pulled, so a large zone is never held at once', async () => {
    const { zone, state } = lazyZone(100_000)
    const query = (
      await signMessage(encodeQuery('big.test', 'AXFR', { id: 3 }), key, { time: NOW })
    ).message
    const messages = transferMessages(query, zone, { keys: [key], requireTsig: true, now: NOW })
    const first = await messages.next()
    expect(first.done).toBe(false)
    expect(state.read).toBeLessThan(1_000)
    await messages.return(undefined)
  })

  it('signs every message of an async zone as one TSIG stream the client verifies', async () => {
    const { zone } = lazyZone(2_000)
    const query = encodeQuery('big.test', 'AXFR', { id: 4 })
    const signed = await signMessage(query, key, { time: NOW })
    const verifier = new TsigStreamVerifier(key, signed.mac, () => NOW)
    let records = 0
    let count = 0
    for await (const m of transferMessages(signed.message, zone, {
      keys: [key],
      requireTsig: true,
      now: NOW,
    })) {
      const unsigned = await verifier.next(m)
      records += decodeMessage(unsigned).answer.length
      count++
    }
    verifier.finish()
    expect(count).toBeGreaterThan(1)
    expect(records).toBe(2_000 + 2)
  })

  it('reads the question of a request, lower case without the final dot', () => {
    expect(requestQuestion(encodeQuery('Big.Test.', 'IXFR', { id: 1 }))).toEqual({
      name: 'big.test',
      type: 251,
    })
    expect(requestQuestion(new Uint8Array(5))).toBeNull()
  })
})
