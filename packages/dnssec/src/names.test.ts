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
      expect(compareNames(predecessor(labels), labels), name).toBeLessThan(0)
      expect(compareNames(predecessor(labels), n('example.com')), name).toBeGreaterThan(0)
      expect(compareNames(successor(labels), labels), name).toBeGreaterThan(0)
      expect(compareNames(afterSubtree(labels), n(`zzz.${name}`)), name).toBeGreaterThan(0)
    }
    expect(labelsText(successor(n('www.example.com')))).toBe('\\000.www.example.com')
    expect(labelsText(predecessor(n('b.example.com')))).toBe('a\\255.example.com')
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
