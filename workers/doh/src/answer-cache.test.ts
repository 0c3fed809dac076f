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
