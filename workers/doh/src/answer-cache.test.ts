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
import { AnswerCache, answerKey, type Confirmer } from './answer-cache.ts'
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
  // Every answer kept at its first miss (no doorkeeper), so a second query can hit.
  return { kv, view, answers: new AnswerCache(view, 20_000, 60_000, 16 << 20, true) }
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
    const answers = new AnswerCache(view, 20_000, 60_000, 16 << 20, true)
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

describe('answer cache admission', () => {
  it('keeps an answer the second time its query misses, not the first', async () => {
    const kv = new FakeKv()
    kv.putAll(zoneImage(meta, [['www.cache.test', a('192.0.2.1')]]))
    const view = new KvZoneView(kv, { revalidateMs: 60_000 })
    const answers = new AnswerCache(view)
    await ask(view, answers, 'www.cache.test', 1)
    expect(answers.size).toBe(0)
    await ask(view, answers, 'www.cache.test', 2)
    expect(answers.size).toBe(1)
    expect(answers.hits).toBe(0)
    const third = await ask(view, answers, 'www.cache.test', 3)
    expect(answers.hits).toBe(1)
    expect(third.id).toBe(3)
    expect(third.answer.map((r) => r.data)).toEqual(['192.0.2.1'])
  })

  const confirmed = { confirm: async () => 1, confirmedStamp: () => 1 }
  const key = (i: number) => answerKey(encodeQuery(`n${i}.cache.test`, 'A', { id: 1 }))
  const keep = (cache: AnswerCache, i: number) =>
    cache.keep(key(i), new Uint8Array(20), 'max-age=60', [['cache.test', 1]], 0)

  it('forgets a first miss once four caches worth of other keys have missed since', () => {
    const cache = new AnswerCache(confirmed, 1)
    keep(cache, 0)
    for (let i = 1; i <= 2; i++) keep(cache, i)
    // Three marks in the window of four: key 0 is still remembered, and kept at its second miss.
    keep(cache, 0)
    expect(cache.size).toBe(1)
    const fresh = new AnswerCache(confirmed, 1)
    keep(fresh, 0)
    for (let i = 1; i <= 3; i++) keep(fresh, i)
    // The fourth mark cleared the window: key 0's second miss counts as a first.
    keep(fresh, 0)
    expect(fresh.size).toBe(0)
  })

  it("keeps a stale answer's fresh answer at its next miss, without a second one", () => {
    let stamp = 1
    const moving = { confirm: async () => stamp, confirmedStamp: () => stamp }
    const cache = new AnswerCache(moving, 10)
    const q = encodeQuery('n0.cache.test', 'A', { id: 1 })
    keep(cache, 0)
    keep(cache, 0)
    expect(cache.answer(q, key(0), 0)).not.toBeNull()
    // Forty other first misses (four caches' worth) clear the window that remembered key 0.
    for (let i = 1; i <= 40; i++) keep(cache, i)
    stamp = 2
    expect(cache.answer(q, key(0), 0)).toBeNull()
    expect(cache.size).toBe(0)
    cache.keep(key(0), new Uint8Array(20), 'max-age=60', [['cache.test', 2]], 0)
    expect(cache.size).toBe(1)
  })
})

describe('answer cache over several zones', () => {
  const query = encodeQuery('alias.one.test', 'A', { id: 7 })
  const key = answerKey(query)
  const wire = () => {
    const w = new Uint8Array(40)
    for (let i = 0; i < w.length; i++) w[i] = (i * 37) & 0xff
    return w
  }
  /** A cache holding one answer read from three zones (stamps 1, 5 and 9). */
  const cacheWith = (confirmer: Confirmer) => {
    const cache = new AnswerCache(confirmer, 10, 60_000, 1 << 20, true)
    const deps: [string, number][] = [
      ['one.test', 1],
      ['two.test', 5],
      ['three.test', 9],
    ]
    cache.keep(key, wire(), 'max-age=60', deps, 0)
    return cache
  }
  const cacheOver = (stamps: Map<string, number | undefined>) =>
    cacheWith({
      confirm: async (zone: string) => stamps.get(zone) ?? 1,
      confirmedStamp: (zone: string) => stamps.get(zone),
    })

  it('answers with the kept bytes under the new ID while every zone has its stamp', () => {
    const stamps = new Map([
      ['one.test', 1],
      ['two.test', 5],
      ['three.test', 9],
    ])
    const reply = cacheOver(stamps).answer(query, key, 0)
    expect(reply).not.toBeNull()
    expect(reply instanceof Promise).toBe(false)
    const bytes = (reply as { wire: Uint8Array }).wire
    expect(Array.from(bytes.subarray(2))).toEqual(Array.from(wire().subarray(2)))
    expect([bytes[0], bytes[1]]).toEqual([0, 7])
  })

  it('is a miss when any zone after the first has another stamp', () => {
    const stamps = new Map([
      ['one.test', 1],
      ['two.test', 5],
      ['three.test', 10],
    ])
    const cache = cacheOver(stamps)
    expect(cache.answer(query, key, 0)).toBeNull()
    expect(cache.size).toBe(0)
  })

  it('waits for a confirmation of a later zone, then answers or misses by its stamp', async () => {
    const unsure = new Map<string, number | undefined>([
      ['one.test', 1],
      ['two.test', undefined],
    ])
    const pending = cacheOver(unsure).answer(query, key, 0)
    expect(pending instanceof Promise).toBe(true)
    // two.test confirms as 1 (the confirmer's default), not 5: a miss.
    expect(await pending).toBeNull()
    const first = new Map<string, number | undefined>([
      ['one.test', undefined],
      ['two.test', 5],
      ['three.test', 9],
    ])
    const confirmer = {
      confirm: async (zone: string) => (zone === 'one.test' ? 1 : -1),
      confirmedStamp: (zone: string) => first.get(zone),
    }
    const cache = cacheWith(confirmer)
    // The first zone waits; the later ones are then confirmed (by `confirm`, -1 here): a miss.
    expect(await cache.answer(query, key, 0)).toBeNull()
  })

  it('answers with the kept bytes once a waited-for later zone confirms its stamp', async () => {
    const kept = new Map([
      ['one.test', 1],
      ['two.test', 5],
      ['three.test', 9],
    ])
    const confirmer = {
      confirm: async (zone: string) => kept.get(zone) ?? -1,
      // three.test must be read; one.test and two.test are confirmed already.
      confirmedStamp: (zone: string) => (zone === 'three.test' ? undefined : kept.get(zone)),
    }
    const cache = cacheWith(confirmer)
    const pending = cache.answer(query, key, 0)
    expect(pending instanceof Promise).toBe(true)
    const reply = await pending
    expect(Array.from(reply!.wire.subarray(2))).toEqual(Array.from(wire().subarray(2)))
    // A later zone that confirms another stamp is still a miss on that path.
    kept.set('three.test', 10)
    expect(await cache.answer(query, key, 0)).toBeNull()
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
    const cache = new AnswerCache(confirmed, 3, 60_000, 16 << 20, true)
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
    const cache = new AnswerCache(confirmed, 1000, 60_000, 10_000, true)
    for (let i = 0; i < 200; i++) keep(cache, i, 400)
    expect(cache.bytes).toBeLessThanOrEqual(10_000)
    expect(cache.size).toBeGreaterThan(0)
    expect(cache.size).toBeLessThan(200)
    expect(held(cache, 199)).toBe(true)
  })

  it('gives back every byte value of a long answer exactly, under the new ID', () => {
    const cache = new AnswerCache(confirmed, 10, 60_000, 1 << 20, true)
    const long = new Uint8Array(65535)
    for (let i = 0; i < long.length; i++) long[i] = (i * 7 + (i >> 8)) & 0xff
    cache.keep(answerKey(query(1)), long, 'max-age=60', [['cache.test', 1]], 0)
    const asked = query(1)
    asked[0] = 0xab
    asked[1] = 0xcd
    const reply = cache.answer(asked, answerKey(asked), 0) as { wire: Uint8Array }
    expect(reply.wire.length).toBe(long.length)
    expect([reply.wire[0], reply.wire[1]]).toEqual([0xab, 0xcd])
    expect(reply.wire.subarray(2)).toEqual(long.subarray(2))
  })

  it('counts a replaced answer once', () => {
    const cache = new AnswerCache(confirmed, 10, 60_000, 1 << 20, true)
    keep(cache, 1)
    const once = cache.bytes
    keep(cache, 1)
    expect(cache.bytes).toBe(once)
    expect(cache.size).toBe(1)
  })

  it('counts its ring and doorkeeper, and keeps nothing when they alone fill the bound', () => {
    const tight = new AnswerCache(confirmed, 100_000, 60_000, 512 * 1024)
    expect(tight.bytes).toBeGreaterThan(512 * 1024)
    for (let i = 0; i < 3; i++) keep(tight, 1)
    expect(tight.size).toBe(0)
    const roomy = new AnswerCache(confirmed, 100, 60_000, 1 << 20)
    const empty = roomy.bytes
    expect(empty).toBeGreaterThan(100 * 8)
    keep(roomy, 1)
    keep(roomy, 1)
    expect(roomy.size).toBe(1)
    expect(roomy.bytes).toBeGreaterThan(empty)
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
