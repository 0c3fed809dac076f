import { describe, expect, it } from 'vitest'
import {
  encodeHead,
  headKey,
  KvZoneView,
  zoneImage,
  type NodeData,
  type ZoneMeta,
} from '@edgedns/kv-layout'
import { FakeKv } from '../../../packages/kv-layout/src/test-fake-kv.ts'
import { decodeMessage, encodeQuery } from '@edgedns/dns-wire'
import { AnswerCache, answerKey } from './answer-cache.ts'
import { wireQuery } from './wire.ts'

const meta: ZoneMeta = {
  v: 1,
  id: 'c'.repeat(32),
  name: 'cache.test',
  serial: 1,
  soa: {
    mname: 'ns1.cache.test',
    rname: 'h.cache.test',
    refresh: 1,
    retry: 1,
    expire: 1,
    minimum: 60,
    ttl: 60,
  },
  ns: ['ns1.cache.test'],
  proxy: { ipv4: [], ipv6: [] },
  apex: { v: 1, sets: {} },
}
const a = (ip: string): NodeData => ({ v: 1, sets: { A: { ttl: 300, rdata: [ip] } } })

function setup() {
  const kv = new FakeKv()
  kv.putAll(zoneImage(meta, [['www.cache.test', a('192.0.2.1')]]))
  // revalidateMs 0, and confirmations stamped a millisecond early: every reuse confirms the zone
  // with KV first, so the test sees each head (a query arriving in the same millisecond as the
  // last confirmation would otherwise count as confirmed).
  const view = new KvZoneView(kv, { revalidateMs: 0, now: () => Date.now() - 1 })
  return { kv, view, answers: new AnswerCache(view) }
}

async function ask(view: KvZoneView, answers: AnswerCache, name: string, id: number) {
  const query = encodeQuery(name, 'A', { id })
  const res = await wireQuery(query, view, answers)
  return decodeMessage(new Uint8Array(await res.arrayBuffer()))
}

describe('answer cache', () => {
  it('answers a repeated query from the cache under the new query ID', async () => {
    const { view, answers } = setup()
    const first = await ask(view, answers, 'www.cache.test', 1)
    const second = await ask(view, answers, 'www.cache.test', 4242)
    expect(answers.hits).toBe(1)
    expect(second.id).toBe(4242)
    expect(second.answer).toEqual(first.answer)
  })

  it('a newer head for the zone makes the next query a miss that sees the change', async () => {
    const { kv, view, answers } = setup()
    expect((await ask(view, answers, 'www.cache.test', 1)).answer.map((r) => r.data)).toEqual([
      '192.0.2.1',
    ])
    const encodedMeta = kv.data.get('z:cache.test')!
    kv.put(
      headKey('cache.test', 2),
      encodeHead({
        n: 2,
        seq: 2,
        meta: encodedMeta,
        overlay: [['www.cache.test', '[["A",300,["192.0.2.2"]]]']],
        changed: [
          [1, 'all'],
          [2, []],
        ],
      })
    )
    const after = await ask(view, answers, 'www.cache.test', 2)
    expect(after.answer.map((r) => r.data)).toEqual(['192.0.2.2'])
    expect(answers.hits).toBe(0)
  })

  it('keeps no REFUSED answer (no hosted zone) and no answer of a different spelling', async () => {
    const { view, answers } = setup()
    await ask(view, answers, 'www.elsewhere.test', 1)
    await ask(view, answers, 'www.elsewhere.test', 2)
    await ask(view, answers, 'WWW.cache.test', 3)
    const lower = await ask(view, answers, 'www.cache.test', 4)
    expect(answers.hits).toBe(0)
    expect(lower.question[0]!.name).toBe('www.cache.test.')
  })

  it('answers without waiting while the zone is confirmed, and waits for a read once the window has passed', async () => {
    const kv = new FakeKv()
    kv.putAll(zoneImage(meta, [['www.cache.test', a('192.0.2.1')]]))
    let clock = 1_000
    const view = new KvZoneView(kv, { revalidateMs: 50, now: () => clock })
    const answers = new AnswerCache(view)
    await ask(view, answers, 'www.cache.test', 1)
    const query = encodeQuery('www.cache.test', 'A', { id: 2 })
    const within = answers.answer(query, answerKey(query), clock + 10)
    expect(within instanceof Promise).toBe(false)
    expect(within).not.toBeNull()
    clock += 60
    const calls = kv.calls
    const later = answers.answer(query, answerKey(query), clock)
    expect(later instanceof Promise).toBe(true)
    expect(await later).not.toBeNull()
    expect(kv.calls).toBeGreaterThan(calls)
  })
})

describe('answer cache bounds', () => {
  const confirmed = { confirm: async () => 1, confirmedStamp: () => 1 }
  const query = (i: number) => encodeQuery(`n${i}.cache.test`, 'A', { id: 1 })
  const keep = (cache: AnswerCache, i: number, size = 10) =>
    cache.keep(answerKey(query(i)), new Uint8Array(size), 'max-age=60', [['cache.test', 1]], 0)
  const held = (cache: AnswerCache, i: number) =>
    cache.answer(query(i), answerKey(query(i)), 0) !== null

  it('holds at most its entry count, and an answer reused since the hand last passed survives', () => {
    const cache = new AnswerCache(confirmed, 3)
    for (let i = 0; i < 3; i++) keep(cache, i)
    expect(held(cache, 0)).toBe(true)
    keep(cache, 3)
    keep(cache, 4)
    expect(cache.size).toBe(3)
    expect(held(cache, 0)).toBe(true)
    expect(held(cache, 1)).toBe(false)
    expect(held(cache, 2)).toBe(false)
    expect(held(cache, 4)).toBe(true)
  })

  it('stays within its byte bound, whatever the entry count allows', () => {
    const cache = new AnswerCache(confirmed, 1000, 60_000, 10_000)
    for (let i = 0; i < 200; i++) keep(cache, i, 400)
    expect(cache.bytes).toBeLessThanOrEqual(10_000)
    expect(cache.size).toBeGreaterThan(0)
    expect(cache.size).toBeLessThan(200)
    expect(held(cache, 199)).toBe(true)
  })
})

describe('answerKey', () => {
  const bytesOf = (length: number, id: number) => {
    const b = new Uint8Array(length)
    for (let i = 2; i < length; i++) b[i] = (i * 131) & 0xff
    b[0] = id >> 8
    b[1] = id & 0xff
    return b
  }
  const oneCharPerByte = (b: Uint8Array) =>
    '\u0000' + Array.from(b.subarray(2), (x) => String.fromCharCode(x)).join('')

  it.each([12, 45, 4098, 4099, 65535])(
    'is a mark and one character per byte after the ID (%i bytes), whatever the ID',
    (length) => {
      expect(answerKey(bytesOf(length, 1))).toBe(oneCharPerByte(bytesOf(length, 1)))
      expect(answerKey(bytesOf(length, 0xbeef))).toBe(answerKey(bytesOf(length, 1)))
    }
  )

  it('differs when any byte after the ID differs', () => {
    const a = bytesOf(45, 1)
    const b = bytesOf(45, 1)
    b[44] = (b[44]! ^ 0x80) & 0xff
    expect(answerKey(a)).not.toBe(answerKey(b))
  })
})
