import fc from 'fast-check'
import tr46 from 'tr46'
import { describe, expect, it } from 'vitest'
import { RecordError } from './errors.ts'
import { absolutize, normalizeHostname, normalizeName, normalizeZoneName } from './names.ts'

const ZONE = 'example.com'

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn()
  } catch (e) {
    return e instanceof RecordError ? e.code : -1
  }
  return undefined
}

describe('normalizeName', () => {
  it.each([
    ['@', 'example.com'],
    ['www', 'www.example.com'],
    ['WWW.Example.COM', 'www.example.com'],
    ['www.example.com.', 'www.example.com'],
    ['example.com', 'example.com'],
    ['example.com.', 'example.com'],
    ['*', '*.example.com'],
    ['*.sub', '*.sub.example.com'],
    ['_sip._tcp', '_sip._tcp.example.com'],
    ['bücher', 'xn--bcher-kva.example.com'],
    ['BÜCHER.example.com', 'xn--bcher-kva.example.com'],
    ['site2.com', 'site2.com.example.com'],
    ['notexample.com', 'notexample.com.example.com'],
    ['  www  ', 'www.example.com'],
  ])('%j -> %j', (input, want) => {
    expect(normalizeName(input, ZONE)).toBe(want)
  })

  it('accepts the zone name in any form', () => {
    expect(normalizeName('www', 'Example.COM.')).toBe('www.example.com')
  })

  it('accepts a 63-octet label and rejects a 64-octet one', () => {
    expect(normalizeName('a'.repeat(63), ZONE)).toBe(`${'a'.repeat(63)}.example.com`)
    expect(codeOf(() => normalizeName('a'.repeat(64), ZONE))).toBe(9000)
  })

  it('accepts a 253-octet name and rejects a 254-octet one', () => {
    // 3 x 63-octet labels + one 49-octet label + 'example.com' = 253 octets with the dots
    const prefix = [63, 63, 63, 49].map((n) => 'b'.repeat(n)).join('.')
    const ok = `${prefix}.${ZONE}`
    expect(ok.length).toBe(253)
    expect(normalizeName(ok, ZONE)).toBe(ok)
    const tooLong = `${[63, 63, 63, 50].map((n) => 'b'.repeat(n)).join('.')}.${ZONE}`
    expect(tooLong.length).toBe(254)
    expect(() => normalizeName(tooLong, ZONE)).toThrow(/longer than 253/)
  })

  it('rejects a relative name that becomes too long once the zone is appended', () => {
    const rel = `${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(50)}`
    expect(codeOf(() => normalizeName(rel, ZONE))).toBe(9000)
  })

  it.each([
    ['', 'empty'],
    ['a..b', 'empty label'],
    ['.www', 'leading dot'],
    ['a.*', 'wildcard not leftmost'],
    ['a.*.b', 'wildcard in the middle'],
    ['*a', 'wildcard inside a label'],
    ['**', 'double star'],
    ['www example', 'space'],
    ['www!', 'punctuation'],
    ['a/b', 'slash'],
  ])('rejects %j (%s) with 9000', (input) => {
    expect(codeOf(() => normalizeName(input, ZONE))).toBe(9000)
  })

  it('starts the message with the Cloudflare text and adds a reason', () => {
    expect(() => normalizeName('a.*', ZONE)).toThrow(
      "DNS name is invalid. '*' is only allowed as the entire leftmost label."
    )
  })

  it('rejects a non-string name', () => {
    expect(codeOf(() => normalizeName(42 as unknown as string, ZONE))).toBe(9000)
  })
})

describe('normalizeZoneName', () => {
  it.each([
    ['Example.COM.', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['sub.example.co.uk', 'sub.example.co.uk'],
  ])('%j -> %j', (input, want) => {
    expect(normalizeZoneName(input)).toBe(want)
  })

  it.each(['com', '*.example.com', 'a..com', '', 'exa mple.com'])('rejects %j with 1099', (z) => {
    expect(codeOf(() => normalizeZoneName(z))).toBe(1099)
    expect(() => normalizeZoneName(z)).toThrow(/^Invalid zone name: /)
  })
})

describe('normalizeHostname', () => {
  it.each([
    ['Mail.Example.com.', 'mail.example.com'],
    ['.', '.'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['_dmarc.example.com', '_dmarc.example.com'],
  ])('%j -> %j', (input, want) => {
    expect(normalizeHostname(input)).toBe(want)
  })

  it.each(['*.example.com', 'a..b', '', `${'x'.repeat(64)}.com`, `${'abcdefghi.'.repeat(25)}abcd`])(
    'rejects %j',
    (h) => {
      expect(codeOf(() => normalizeHostname(h))).toBe(9000)
    }
  )

  it('accepts a name of exactly 253 octets with labels of 63', () => {
    const h = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`
    expect(normalizeHostname(h.toUpperCase())).toBe(h)
  })

  it('gives plain ASCII hostnames in any case exactly what UTS 46 processing gives', () => {
    const label = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/)
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 5 }), fc.boolean(), (labels, dot) => {
        const h = labels.join('.')
        const uts46 = tr46.toASCII(h, { useSTD3ASCIIRules: false, transitionalProcessing: false })
        expect(normalizeHostname(dot ? `${h}.` : h)).toBe(uts46)
      }),
      { numRuns: 500 }
    )
  })

  it.each([
    [
      'upper-case Punycode is decoded and checked',
      'XN--BCHER-KVA.Example',
      'xn--bcher-kva.example',
    ],
    ['the Kelvin sign maps to k', '\u212a.example', 'k.example'],
  ])('%s', (_what, input, want) => {
    expect(normalizeHostname(input)).toBe(want)
  })

  it('refuses broken Punycode in upper case', () => {
    expect(codeOf(() => normalizeHostname('XN--ZZ.example'))).toBe(9000)
  })
})

describe('absolutize', () => {
  it.each([
    ['@', 'example.com.', 'example.com'],
    ['mail', 'example.com.', 'mail.example.com'],
    ['mail.other.org.', 'example.com.', 'mail.other.org'],
    ['.', 'example.com', '.'],
  ])('%j in %j -> %j', (name, origin, want) => {
    expect(absolutize(name, origin)).toBe(want)
  })
})

describe('UTS 46 / IDNA2008 validity of names', () => {
  const refused: [string, string][] = [
    ['C1 control U+0085', 'a\u0085b'],
    ['zero width space U+200B', 'a\u200bb'],
    ['right-to-left override U+202E', 'a\u202eb'],
    ['replacement character U+FFFD', 'a\ufffdb'],
    ['noncharacter U+FDD0', 'a\ufdd0b'],
    ['noncharacter U+FFFF', 'a\uffffb'],
    ['lone surrogate', 'a\ud800b'],
    ['zero width non-joiner outside its context', 'a\u200cb'],
    ['Punycode of a disallowed label', 'xn--ab-qa'],
    ['broken Punycode', 'xn--zz'],
  ]

  it.each(refused)('refuses an owner name with a %s (9000, naming the fault)', (_what, label) => {
    expect(codeOf(() => normalizeName(label, ZONE))).toBe(9000)
    expect(() => normalizeName(label, ZONE)).toThrow(/DNS name is invalid/)
  })

  it.each(refused)('refuses a zone name with a %s (1099)', (_what, label) => {
    expect(codeOf(() => normalizeZoneName(`${label}.example`))).toBe(1099)
  })

  it.each(refused)('refuses a hostname target with a %s (9000)', (_what, label) => {
    expect(codeOf(() => normalizeHostname(`${label}.example.net`))).toBe(9000)
  })

  it('names the offending code point in the message', () => {
    expect(() => normalizeName('a\u0085b', ZONE)).toThrow(/U\+0085/)
    expect(() => normalizeName('a\u202eb', ZONE)).toThrow(/U\+202E/)
    expect(() => normalizeZoneName('a\ud800b.example')).toThrow(/U\+D800/)
  })

  it.each([
    ['full-width letters', 'ＷＷＷ', 'www.example.com'],
    ['ideographic full stop', 'a\u3002b', 'a.b.example.com'],
    ['ligature fi', 'ﬁle', 'file.example.com'],
    ['sharp s, nontransitional', 'straße', 'xn--strae-oqa.example.com'],
    ['upper-case non-ASCII', 'BÜCHER', 'xn--bcher-kva.example.com'],
    ['valid Punycode, kept', 'xn--bcher-kva', 'xn--bcher-kva.example.com'],
    ['emoji', '😀', 'xn--e28h.example.com'],
    ['wildcard before an IDN label', '*.bücher', '*.xn--bcher-kva.example.com'],
  ])('maps as UTS 46 does: %s', (_what, input, want) => {
    expect(normalizeName(input, ZONE)).toBe(want)
  })

  it('keeps underscores in owner names beside IDN labels', () => {
    expect(normalizeName('_dmarc.bücher', ZONE)).toBe('_dmarc.xn--bcher-kva.example.com')
  })
})
