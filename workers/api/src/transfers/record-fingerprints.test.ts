import { describe, expect, it } from 'vitest'
import { fingerprint, Fingerprints } from './record-fingerprints.ts'

const value = (i: number) =>
  `com.example.r-${i}\u0000A\u000010.0.${i >> 8}.${i & 255}\u0000-1\u0000300\u0000`

describe('the fingerprints of an AXFR', () => {
  it('finds each value added by its order, and no value not added', () => {
    const fp = new Fingerprints(100_000)
    for (let i = 0; i < 100_000; i++) expect(fp.add(value(i))).toBe(true)
    expect(fp.size).toBe(100_000)
    for (let i = 0; i < 100_000; i += 7) expect(fp.find(value(i))).toBe(i)
    for (let i = 100_000; i < 200_000; i++) if (fp.find(value(i)) !== -1) throw new Error(value(i))
  })

  it('answers the first of equal values, and adds nothing past its limit', () => {
    const fp = new Fingerprints(3)
    expect([fp.add('a'), fp.add('b'), fp.add('a'), fp.add('c')]).toEqual([true, true, true, false])
    expect(fp.size).toBe(3)
    expect([fp.find('a'), fp.find('b'), fp.find('c')]).toEqual([0, 1, -1])
    // Values added after a lookup are found too.
    const more = new Fingerprints(10)
    more.add('x')
    expect(more.find('y')).toBe(-1)
    more.add('y')
    expect(more.find('y')).toBe(1)
  })

  it('answers, for each value added, the first added equal to it', () => {
    const fp = new Fingerprints(10)
    for (const v of ['a', 'b', 'a', 'c', 'b', 'a']) fp.add(v)
    expect([0, 1, 2, 3, 4, 5].map((i) => fp.firstEqual(i))).toEqual([0, 1, 0, 3, 1, 0])
    expect(() => fp.firstEqual(6)).toThrow(RangeError)
    // Many values, a few of them repeated, through a table that has grown.
    const many = new Fingerprints(50_000)
    for (let i = 0; i < 40_000; i++) many.add(value(i % 30_000))
    for (let i = 0; i < 40_000; i += 13) expect(many.firstEqual(i)).toBe(i % 30_000)
  })

  it('differs in all three hashes for values one character or one swap apart', () => {
    const of = (s: string) => {
      const out = new Uint32Array(3)
      fingerprint(s, out, 0)
      return [...out]
    }
    const base = of('www.example.com\u0000A\u0000192.0.2.1\u0000300')
    for (const other of [
      'www.example.com\u0000A\u0000192.0.2.2\u0000300',
      'www.example.com\u0000A\u0000192.0.2.1\u0000301',
      'www.example.com\u0000A\u0000192.0.2.1\u0000030',
      'wwx.example.com\u0000A\u0000192.0.2.1\u0000300',
      'www.example.com\u0000A\u0000192.0.2.1\u0000300\u0000',
    ]) {
      const o = of(other)
      expect(o.map((h, i) => h === base[i])).toEqual([false, false, false])
    }
    expect(of('')).toEqual(of(''))
  })
})
