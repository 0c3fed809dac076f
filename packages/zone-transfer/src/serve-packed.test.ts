import { decodeMessage, encodeQuery, type ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { transferRequest } from './client.ts'
import { PackedAnswerCache } from './packed-answers.ts'
import { NOW, key, soa } from './serve-fixture.ts'
import { transferMessages, type TransferZone } from './serve.ts'
import { signMessage } from './tsig.ts'
import { TsigStreamVerifier } from './tsig-stream.ts'

/**
 * A zone of `count` TXT records counting how many times its records were read; with `slow`, a
 * read pauses a few milliseconds every 200 records (as pages come from D1).
 */
function countedZone(count: number, failAt = -1, slow = false) {
  const state = { reads: 0 }
  const zone: TransferZone = {
    soa,
    async *records(): AsyncGenerator<ResponseRR> {
      state.reads++
      for (let i = 0; i < count; i++) {
        if (slow && i % 200 === 0) await new Promise((r) => setTimeout(r, 5))
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
async function transfer(
  zone: TransferZone,
  cache: PackedAnswerCache,
  id: number,
  version = 'v1',
  followMs?: number
) {
  const request = await signedAxfr(id)
  const verifier = new TsigStreamVerifier(key, request.mac, () => NOW)
  const out: Uint8Array[] = []
  for await (const m of transferMessages(request.message, zone, {
    keys: [key],
    requireTsig: true,
    now: NOW,
    packed: cache.of('zone-1', version),
    ...(followMs === undefined ? {} : { followMs }),
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

  it('answers an AXFR asked while another of the same version is being packed from that one, reading the zone once', async () => {
    const { zone, state } = countedZone(2_000, -1, true)
    const cache = new PackedAnswerCache({ budgetBytes: 10_000_000, minBytes: 0 })
    const [first, second] = await Promise.all([
      transfer(zone, cache, 11),
      transfer(zone, cache, 22),
    ])
    expect(state.reads).toBe(1)
    expect(second.map((m) => decodeMessage(m).id)).toEqual(second.map(() => 22))
    expect(second.map((m) => m.slice(2))).toEqual(first.map((m) => m.slice(2)))
    // Without waiting (followMs 0), each reads the zone.
    const other = countedZone(2_000, -1, true)
    await Promise.all([
      transfer(other.zone, cache, 1, 'v2', 0),
      transfer(other.zone, cache, 2, 'v2', 0),
    ])
    expect(other.state.reads).toBe(2)
  })

  it('reads the zone itself when the transfer it waited for fails, or outlasts its wait', async () => {
    const failing = countedZone(2_000, 1_500, true)
    const cache = new PackedAnswerCache({ budgetBytes: 10_000_000, minBytes: 0 })
    const whole = countedZone(2_000, -1, true)
    const [failed, second] = await Promise.allSettled([
      transfer(failing.zone, cache, 1),
      // Starts once the first is packing; reads `whole` after it failed.
      new Promise((r) => setTimeout(r, 2)).then(() => transfer(whole.zone, cache, 2)),
    ])
    expect(failed.status).toBe('rejected')
    expect(second.status).toBe('fulfilled')
    expect(whole.state.reads).toBe(1)
    const answered = (second as PromiseFulfilledResult<Uint8Array[]>).value
    expect(answered.flatMap((m) => decodeMessage(m).answer).length).toBe(2_002)
    // A wait shorter than the packing: the second reads the zone itself.
    const slow = countedZone(2_000, -1, true)
    await Promise.all([
      transfer(slow.zone, cache, 3, 'v3'),
      new Promise((r) => setTimeout(r, 2)).then(() => transfer(slow.zone, cache, 4, 'v3', 1)),
    ])
    expect(slow.state.reads).toBe(2)
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
