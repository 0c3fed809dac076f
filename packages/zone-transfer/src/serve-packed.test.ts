import { decodeMessage, encodeQuery, type ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { transferRequest } from './client.ts'
import { PackedAnswerCache } from './packed-answers.ts'
import { NOW, key, soa } from './serve-fixture.ts'
import { transferMessages, type TransferZone } from './serve.ts'
import { signMessage } from './tsig.ts'
import { TsigStreamVerifier } from './tsig-stream.ts'

/** A zone of `count` TXT records counting how many times its records were read. */
function countedZone(count: number, failAt = -1) {
  const state = { reads: 0 }
  const zone: TransferZone = {
    soa,
    async *records(): AsyncGenerator<ResponseRR> {
      state.reads++
      for (let i = 0; i < count; i++) {
        if (i === failAt) throw new Error('the zone changed during the transfer')
        yield { name: `h${i}.example.test`, type: 16, ttl: 60, rdata: `"${'x'.repeat(100)}"` }
      }
    },
  }
  return { zone, state }
}

async function signedAxfr(id: number) {
  return signMessage(encodeQuery('example.test', 'AXFR', { id }), key, { time: NOW })
}

/** Every message of a signed AXFR (id `id`), verified as a client does; without their TSIG. */
async function transfer(zone: TransferZone, cache: PackedAnswerCache, id: number, version = 'v1') {
  const request = await signedAxfr(id)
  const verifier = new TsigStreamVerifier(key, request.mac, () => NOW)
  const out: Uint8Array[] = []
  for await (const m of transferMessages(request.message, zone, {
    keys: [key],
    requireTsig: true,
    now: NOW,
    packed: cache.of('zone-1', version),
  }))
    out.push(await verifier.next(m))
  verifier.finish()
  return out
}

describe('a transfer answered from packed messages', () => {
  it('answers the next AXFR of the same version without reading the zone, under its own ID and TSIG', async () => {
    const { zone, state } = countedZone(2_000)
    const cache = new PackedAnswerCache({ budgetBytes: 10_000_000, minBytes: 0 })
    const first = await transfer(zone, cache, 11)
    const second = await transfer(zone, cache, 22)
    expect(state.reads).toBe(1)
    expect(second.length).toBe(first.length)
    expect(first.length).toBeGreaterThan(5)
    for (const [i, m] of second.entries()) {
      expect(decodeMessage(m).id).toBe(22)
      expect(m.slice(2)).toEqual(first[i]!.slice(2))
    }
    expect(second.flatMap((m) => decodeMessage(m).answer).length).toBe(2_002)
  })

  it('reads the zone again for another version', async () => {
    const { zone, state } = countedZone(100)
    const cache = new PackedAnswerCache({ budgetBytes: 10_000_000, minBytes: 0 })
    await transfer(zone, cache, 1, 'v1')
    await transfer(zone, cache, 2, 'v2')
    expect(state.reads).toBe(2)
  })

  it('keeps nothing of an answer whose records failed part way', async () => {
    const failing = countedZone(2_000, 1_500)
    const cache = new PackedAnswerCache({ budgetBytes: 10_000_000, minBytes: 0 })
    await expect(transfer(failing.zone, cache, 1)).rejects.toThrow('changed during the transfer')
    expect(cache.usedBytes).toBe(0)
    const { zone, state } = countedZone(2_000)
    await transfer(zone, cache, 2)
    expect(state.reads).toBe(1)
  })

  it('keeps nothing of an answer its reader stopped reading', async () => {
    const { zone, state } = countedZone(2_000)
    const cache = new PackedAnswerCache({ budgetBytes: 10_000_000, minBytes: 0 })
    const request = await signedAxfr(5)
    const messages = transferMessages(request.message, zone, {
      keys: [key],
      requireTsig: true,
      now: NOW,
      packed: cache.of('zone-1', 'v1'),
    })
    await messages.next()
    // Its first messages were taken, and are let go when the reader stops.
    expect(cache.usedBytes).toBeGreaterThan(0)
    await messages.return(undefined)
    expect(cache.usedBytes).toBe(0)
    await transfer(zone, cache, 6)
    expect(state.reads).toBe(2)
  })

  it('does not answer an IXFR in the AXFR form with the messages of an AXFR (their question differs)', async () => {
    const { zone, state } = countedZone(50)
    const cache = new PackedAnswerCache({ budgetBytes: 10_000_000, minBytes: 0 })
    await transfer(zone, cache, 1)
    const signed = await transferRequest({
      zone: 'example.test',
      kind: 'IXFR',
      id: 9,
      now: NOW,
      soa: soa.rdata.replace(' 5 ', ' 1 '),
      key,
    })
    const answer: Uint8Array[] = []
    for await (const m of transferMessages(signed.message, zone, {
      keys: [key],
      requireTsig: true,
      now: NOW,
      packed: cache.of('zone-1', 'v1'),
    }))
      answer.push(m)
    expect(state.reads).toBe(2)
    expect(decodeMessage(answer[0]!).question[0]!.typeCode).toBe(251)
  })

  it('packs again for a request of another form: unsigned (no TSIG room), or with EDNS (an OPT record)', async () => {
    const { zone, state } = countedZone(2_000)
    const cache = new PackedAnswerCache({ budgetBytes: 10_000_000, minBytes: 0 })
    await transfer(zone, cache, 1)
    const plain = async (edns: boolean) => {
      const out: Uint8Array[] = []
      const query = encodeQuery('example.test', 'AXFR', { id: 2, ...(edns ? { edns: {} } : {}) })
      for await (const m of transferMessages(query, zone, {
        keys: [],
        requireTsig: false,
        now: NOW,
        packed: cache.of('zone-1', 'v1'),
      }))
        out.push(m)
      return out
    }
    const unsigned = await plain(false)
    expect(state.reads).toBe(2)
    expect(decodeMessage(unsigned[0]!).opt).toBeNull()
    const withEdns = await plain(true)
    expect(state.reads).toBe(3)
    expect(decodeMessage(withEdns[0]!).opt).not.toBeNull()
    // Each form is then answered from its own packed messages.
    expect(await plain(true)).toEqual(withEdns)
    expect(state.reads).toBe(3)
  })
})
