/**
 * The DNS front's response-rate limiting (front-rrl.mjs) on its own clock: client networks (IPv4
 * /24, IPv6 /56), the token bucket's rate and refill, the slip pattern, and the bounded table.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { clientNetwork, missLimiter, responseLimiter } from './front-rrl.mjs'

describe('client networks', () => {
  it.each([
    ['192.0.2.1', '192.0.2.0/24'],
    ['192.0.2.254', '192.0.2.0/24'],
    ['::ffff:192.0.2.9', '192.0.2.0/24'],
    ['2001:db8:1:2ff:1::1', '2001:db8:1:200::/56'],
    ['2001:db8:1:200::', '2001:db8:1:200::/56'],
    ['2001:db8::1', '2001:db8:0:0::/56'],
    ['::1', '0:0:0:0::/56'],
  ])('%s counts in %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network)
  })
})

function clocked(options: object) {
  let t = 0
  const limiter = responseLimiter({ ...options, now: () => t })
  return { limiter, advance: (ms: number) => (t += ms) }
}

describe('response-rate limiting', () => {
  it('sends `rate` responses a second, then drops and slips in turn, and refills with time', () => {
    const { limiter, advance } = clocked({ rate: 3, slip: 2 })
    const burst = Array.from({ length: 7 }, () => limiter.decide('192.0.2.1', 'www/1/1'))
    expect(burst).toEqual(['send', 'send', 'send', 'drop', 'slip', 'drop', 'slip'])
    advance(1000 / 3)
    expect(limiter.decide('192.0.2.77', 'www/1/1')).toBe('send') // same /24, one token back
    expect(limiter.decide('192.0.2.1', 'www/1/1')).not.toBe('send')
    expect(limiter.decide('192.0.3.1', 'www/1/1')).toBe('send') // another /24
    expect(limiter.decide('192.0.2.1', 'other/1/1')).toBe('send') // another answer
  })

  it('drops everything over the limit with slip 0, and limits nothing with rate 0', () => {
    const { limiter } = clocked({ rate: 1, slip: 0 })
    limiter.decide('192.0.2.1', 'a')
    expect(new Set(Array.from({ length: 10 }, () => limiter.decide('192.0.2.1', 'a')))).toEqual(
      new Set(['drop'])
    )
    const off = clocked({ rate: 0 }).limiter
    expect(Array.from({ length: 100 }, () => off.decide('192.0.2.1', 'a'))).not.toContain('drop')
  })

  it('keeps at most maxBuckets buckets, evicting the least recently used', () => {
    const { limiter } = clocked({ rate: 1, maxBuckets: 100 })
    for (let i = 0; i < 10_000; i++) limiter.decide(`10.${i >> 8}.${i & 255}.1`, 'a')
    expect(limiter.buckets).toBe(100)
  })
})

describe('cache misses per client network', () => {
  it('allows `rate` a second per network', () => {
    let t = 0
    const misses = missLimiter({ rate: 2, now: () => t })
    expect([1, 2, 3].map(() => misses.allow('192.0.2.1'))).toEqual([true, true, false])
    expect(misses.allow('198.51.100.1')).toBe(true)
    t += 500
    expect(misses.allow('192.0.2.1')).toBe(true)
  })
})
