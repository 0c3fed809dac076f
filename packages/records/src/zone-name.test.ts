import { describe, expect, it } from 'vitest'
import { RecordError } from './errors.ts'
import { idna2008Fault } from './idna2008.ts'
import { normalizeName, normalizeZoneName } from './names.ts'
import { normalizeNewZoneName } from './zone-name.ts'

function refusal(name: string): { code: number; message: string } | undefined {
  try {
    normalizeNewZoneName(name)
  } catch (e) {
    if (!(e instanceof RecordError)) throw e
    return { code: e.code, message: e.message }
  }
  return undefined
}

describe('normalizeNewZoneName', () => {
  it.each([
    ['Example.COM.', 'example.com'],
    ['xyz-abc.example', 'xyz-abc.example'],
    ['a--b.example', 'a--b.example'],
    ['1.2.3.example', '1.2.3.example'],
    ['123.test', '123.test'],
    ['Bücher.de', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['col·legi.cat', 'xn--collegi-xma.cat'],
    ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
    ['ストア・テスト.jp', 'xn--cck2bb5cid86a.jp'],
    ['مثال.test', 'xn--mgbh0fb.test'],
  ])('accepts %j as %j', (input, want) => {
    expect(normalizeNewZoneName(input)).toBe(want)
  })

  it.each([
    ['-a.test', /label "-a" starts with a hyphen/],
    ['a-.test', /label "a-" ends with a hyphen/],
    ['www.-a-.test', /label "-a-" starts with a hyphen/],
    ['-ü.test', /label "-ü" \(xn----.*\) starts with a hyphen/],
    ['1.2.3.4', /the last label "4" is all digits/],
    ['example.123', /the last label "123" is all digits/],
    ['_dmarc.foo.test', /label "_dmarc" contains '_'/],
    ['foo_bar.test', /label "foo_bar" contains '_'/],
    ['\u0640.test', /label "\u0640" \(xn--chb\) is not a valid IDNA2008 label: U\+0640/],
    ['xn--chb.test', /U\+0640 at position 1 is not allowed/],
    ['ab\u0640cd.test', undefined],
    ['\u2603.test', /U\+2603 at position 1 is not allowed in a domain name by IDNA2008/],
    ['a\u00b7b.test', /U\+00B7 at position 2 \(MIDDLE DOT\)/],
    ['\u30fb.test', /KATAKANA MIDDLE DOT/],
    ['a..test', /empty label/],
    ['test', /at least two labels/],
  ])('refuses %j with 1099 and its reason', (name, reason) => {
    const r = refusal(name)
    expect(r?.code).toBe(1099)
    expect(r?.message).toMatch(/^Invalid zone name: /)
    if (reason) expect(r?.message).toMatch(reason)
  })

  it('leaves the other name rules as they were: existing zones and record names', () => {
    expect(normalizeZoneName('_dmarc.foo.test')).toBe('_dmarc.foo.test')
    expect(normalizeZoneName('1.2.3.4')).toBe('1.2.3.4')
    expect(normalizeName('_dmarc', 'example.com')).toBe('_dmarc.example.com')
    expect(normalizeName('-a', 'example.com')).toBe('-a.example.com')
  })
})

describe('idna2008Fault', () => {
  it.each(['bücher', 'straße', 'ς', 'l·l', 'א׳', '͵α', '・カ', '٠١', '۰۱', 'xyz'])(
    'finds nothing wrong in %j',
    (label) => expect(idna2008Fault(label)).toBeNull()
  )
  it.each([
    ['\u0640', 'U+0640'],
    ['\u07fa', 'U+07FA'],
    ['\u3031', 'U+3031'],
    ['\u303b', 'U+303B'],
    ['a\u2665', 'U+2665'],
    ['\u{1f600}', 'U+1F600'],
    ['A', 'U+0041'],
    ['\u05f3', 'U+05F3'],
    ['\u0375x', 'U+0375'],
    ['\u0661\u06f1', 'Arabic-Indic and Extended Arabic-Indic digits may not be mixed'],
  ])('refuses %j, naming %s', (label, cp) => expect(idna2008Fault(label)).toContain(cp))
})
