import { describe, expect, it } from 'vitest'
import {
  afterSubtree,
  compareNames,
  labelsText,
  predecessor,
  rrsigLabels,
  successor,
} from './names.ts'
import { typeBitmaps } from './nsec.ts'
import { parseName } from '@edgedns/dns-wire'

const n = parseName

describe('names for minimally covering NSEC records', () => {
  it('puts the successor right after the name and the predecessor right before it', () => {
    for (const name of [
      'b.example.com',
      'a.example.com',
      'x[.example.com',
      'a\\000.example.com',
      'z9-.example.com',
    ]) {
      const labels = n(name)
      const before = predecessor(labels)!
      expect(compareNames(before, labels), name).toBeLessThan(0)
      expect(compareNames(before, n('example.com')), name).toBeGreaterThan(0)
      expect(compareNames(successor(labels), labels), name).toBeGreaterThan(0)
      expect(compareNames(afterSubtree(labels), n(`zzz.${name}`)), name).toBeGreaterThan(0)
    }
    expect(labelsText(successor(n('www.example.com')))).toBe('\\000.www.example.com')
    expect(labelsText(predecessor(n('b.example.com'))!)).toBe('a\\255.example.com')
  })

  it('never gives a name a zone may hold: one ending in \\000 is preceded by a name below the shorter one', () => {
    // `www\000` comes right after `www` and its descendants: `www` itself may exist.
    const before = predecessor(n('www\\000.example.com'))!
    expect(labelsText(before)).toBe('\\255.www.example.com')
    expect(compareNames(before, n('www.example.com'))).toBeGreaterThan(0)
    expect(compareNames(before, n('zzz.www.example.com'))).toBeGreaterThan(0)
    // A 63-octet label has no room for \255: a \255 label goes below the lowered name instead.
    const long = 'b'.repeat(63)
    const underLong = predecessor(n(`${long}.example.com`))!
    expect(labelsText(underLong)).toBe(`\\255.${'b'.repeat(62)}a.example.com`)
    expect(compareNames(underLong, n(`${long}.example.com`))).toBeLessThan(0)
  })

  it('has none for \\000.<parent>, which only the parent precedes, or when nothing fits in 255 octets', () => {
    expect(predecessor(n('\\000.example.com'))).toBeNull()
    // 255 octets: `b\\000` then labels of 62, 62, 62 and 61 octets.
    const rest = ['d'.repeat(62), 'd'.repeat(62), 'd'.repeat(62), 'd'.repeat(61)].join('.')
    expect(predecessor(n(`b\\000.${rest}`))).toBeNull()
  })

  it('counts RRSIG labels without a leading wildcard', () => {
    expect(rrsigLabels(n('*.example.com'))).toBe(2)
    expect(rrsigLabels(n('www.example.com'))).toBe(3)
  })

  it('encodes NSEC type bit maps as RFC 4034 §4.3 shows', () => {
    const hex = Buffer.from(typeBitmaps([1, 15, 46, 47, 1234])).toString('hex')
    expect(hex).toBe('0006400100000003' + '041b' + '00'.repeat(26) + '20')
  })
})
