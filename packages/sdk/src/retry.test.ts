import { describe, expect, it } from 'vitest'
import { EdgeDns } from './client.ts'
import type { ClientOptions } from './http.ts'
import { envelope, scripted } from './test-fetch.ts'

const T0 = Date.parse('2026-11-26T12:00:00Z')

/** A 429 as the API answers it (code 971), with the given `retry-after`. */
function limited(retryAfter?: string): Response {
  return new Response(
    JSON.stringify({
      success: false,
      errors: [{ code: 971, message: 'Rate limited: too many requests for this token' }],
      messages: [],
      result: null,
    }),
    {
      status: 429,
      headers: {
        'content-type': 'application/json',
        'ratelimit-policy': '"default";q=240;w=60',
        ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
      },
    }
  )
}

/** A client over a scripted fetch whose sleeps only move a fake clock. */
function client(
  answers: (() => Response)[],
  retry?: ClientOptions['retry']
): { dns: EdgeDns; calls: { method: string }[]; slept: number[] } {
  const slept: number[] = []
  let now = T0
  const { fetch, calls } = scripted((_c, i) => answers[Math.min(i, answers.length - 1)]!())
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms)
      now += ms
    },
  }
  const dns = new EdgeDns({
    baseUrl: 'http://dns.test',
    fetch,
    retry: retry === false ? false : { ...clock, ...retry },
  })
  return { dns, calls, slept }
}

describe('retries on 429', () => {
  it('waits retry-after seconds and retries, for any method, a 429 being a request not processed', async () => {
    const { dns, calls, slept } = client([
      () => limited('3'),
      () => envelope({ id: 'r1' }, {}, { 'x-edgedns-change-seq': '5' }),
    ])
    const rec = await dns.records.create('z', { type: 'A', name: 'a', content: '192.0.2.1' })
    expect(rec).toEqual({ id: 'r1' })
    expect(rec.changeSeq).toBe(5)
    expect(calls.map((c) => c.method)).toEqual(['POST', 'POST'])
    expect(slept).toEqual([3000])
  })

  it('honours retry-after given as an HTTP date', async () => {
    const at = new Date(T0 + 7000).toUTCString()
    const { dns, slept } = client([() => limited(at), () => envelope({ id: 'z' })])
    expect(await dns.zones.get('z')).toEqual({ id: 'z' })
    expect(slept).toEqual([7000])
  })

  it('gives up after maxRetries (default 2) with the 429 and its retry-after', async () => {
    const { dns, calls, slept } = client([() => limited('1')])
    const err = await dns.zones.get('z').catch((e) => e)
    expect(err).toMatchObject({ kind: 'api', status: 429, code: 971, retryAfterMs: 1000 })
    expect(calls).toHaveLength(3)
    expect(slept).toEqual([1000, 1000])

    const more = client([() => limited('1')], { maxRetries: 4 })
    await expect(more.dns.zones.get('z')).rejects.toMatchObject({ status: 429 })
    expect(more.calls).toHaveLength(5)
  })

  it('does not wait longer than maxDelayMs: a longer retry-after is thrown at once', async () => {
    const { dns, calls, slept } = client([() => limited('60'), () => envelope({})], {
      maxDelayMs: 10_000,
    })
    await expect(dns.zones.get('z')).rejects.toMatchObject({ status: 429, retryAfterMs: 60_000 })
    expect(calls).toHaveLength(1)
    expect(slept).toEqual([])
  })

  it('backs off from one second without a retry-after header', async () => {
    const { dns, slept } = client([() => limited(), () => limited('junk'), () => envelope({})])
    await dns.zones.get('z')
    expect(slept).toEqual([1000, 2000])
  })

  it('does not retry when turned off, nor on other errors', async () => {
    const off = client([() => limited('1'), () => envelope({})], false)
    await expect(off.dns.zones.get('z')).rejects.toMatchObject({ status: 429 })
    expect(off.calls).toHaveLength(1)

    const zero = client([() => limited('1'), () => envelope({})], { maxRetries: 0 })
    await expect(zero.dns.zones.get('z')).rejects.toMatchObject({ status: 429 })
    expect(zero.calls).toHaveLength(1)

    const failing = client([
      () =>
        new Response('{"success":false,"errors":[{"code":10000,"message":"x"}]}', { status: 500 }),
      () => envelope({}),
    ])
    await expect(failing.dns.zones.get('z')).rejects.toMatchObject({ status: 500 })
    expect(failing.calls).toHaveLength(1)
    expect(failing.slept).toEqual([])
  })
})
