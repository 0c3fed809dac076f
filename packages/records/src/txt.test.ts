import { describe, expect, it } from 'vitest'
import { normalizeContent, toPresentation } from './content.ts'
import { formatTxtStrings, parseTxtStrings, txtContentFromStrings, txtPresentation } from './txt.ts'

const enc = (s: string) => new TextEncoder().encode(s)
const dec = (parts: Uint8Array[]) => parts.map((p) => new TextDecoder().decode(p))

describe('parseTxtStrings', () => {
  it.each([
    ['hello world', ['hello world']],
    ['"hello world"', ['hello world']],
    ['"a" "b"', ['a', 'b']],
    ['"a"\t"b"', ['a', 'b']],
    ['"a" bare', ['a', 'bare']],
    ['"say \\"hi\\""', ['say "hi"']],
    ['"back\\\\slash"', ['back\\slash']],
    ['"\\065\\066"', ['AB']],
    ['"\\;"', [';']],
    ['""', ['']],
    ['', ['']],
  ])('%j -> %j', (content, want) => {
    expect(dec(parseTxtStrings(content))).toEqual(want)
  })

  it('decodes \\DDD to raw octets', () => {
    expect(parseTxtStrings('"\\255\\000"')[0]).toEqual(Uint8Array.from([255, 0]))
  })

  it('splits long strings into 255-octet chunks', () => {
    const parts = parseTxtStrings(`"${'x'.repeat(600)}"`)
    expect(parts.map((p) => p.length)).toEqual([255, 255, 90])
  })

  it.each(['"open', '"a"b', '"\\25"', '"\\256"', '"tail\\'])('rejects %j', (content) => {
    expect(() => parseTxtStrings(content)).toThrow()
  })
})

describe('formatTxtStrings', () => {
  it('quotes and escapes each string', () => {
    expect(formatTxtStrings([enc('a b'), enc('say "hi"'), enc('c\\d')])).toBe(
      '"a b" "say \\"hi\\"" "c\\\\d"'
    )
  })

  it('keeps UTF-8 readable and escapes control and invalid octets', () => {
    expect(formatTxtStrings([enc('héllo\n')])).toBe('"héllo\\010"')
    expect(formatTxtStrings([Uint8Array.from([0x41, 0xff])])).toBe('"A\\255"')
  })

  it('round-trips through parseTxtStrings', () => {
    const parts = [Uint8Array.from([0, 1, 34, 92, 200, 65]), enc('plain'), enc('')]
    expect(parseTxtStrings(formatTxtStrings(parts))).toEqual(parts)
  })
})

describe('TXT content kept as sent', () => {
  const rec = (content: string) => ({ type: 'TXT' as const, content, data: null, priority: null })

  it.each([
    ['acme-v2-1033', '"acme-v2-1033"'],
    ['v=spf1 mx -all', '"v=spf1 mx -all"'],
    ['say "hi" \\o/', '"say \\"hi\\" \\\\o/"'],
    ['"a" "b"', '"a" "b"'],
    ['"a"   b', '"a" "b"'],
    ['"say \\"hi\\""', '"say \\"hi\\""'],
  ])('%j is stored as sent and presented as %j', (content, presentation) => {
    expect(normalizeContent({ type: 'TXT', content }).content).toBe(content)
    expect(toPresentation(rec(content))).toBe(presentation)
    expect(txtPresentation(content)).toBe(presentation)
  })

  it('unquoted content is one text: spaces do not split it, 255-octet pieces do', () => {
    expect(dec(parseTxtStrings('a b c'))).toEqual(['a b c'])
    const long = `${'k'.repeat(250)} ${'v'.repeat(100)}`
    expect(dec(parseTxtStrings(long))).toEqual([long.slice(0, 255), long.slice(255)])
  })
})

describe('txtContentFromStrings (zone-file strings -> content)', () => {
  it.each([
    [['acme-v2-1033'], 'acme-v2-1033'],
    [['v=spf1 mx -all'], 'v=spf1 mx -all'],
    [['say "hi"'], 'say "hi"'],
    [['x'.repeat(255), 'x'.repeat(45)], 'x'.repeat(300)],
    [['a', 'b'], '"a" "b"'],
    [['x'.repeat(100), 'y'], `"${'x'.repeat(100)}" "y"`],
    [[''], '""'],
    [[' padded'], '" padded"'],
    [['"starts with a quote'], '"\\"starts with a quote"'],
  ])('%j -> %j', (strings, content) => {
    expect(txtContentFromStrings(strings.map(enc))).toBe(content)
  })

  it('keeps octets that are not UTF-8 in the quoted form', () => {
    expect(txtContentFromStrings([Uint8Array.from([0x41, 0xff])])).toBe('"A\\255"')
  })

  it('a one-string text over 255 octets reads back as the unquoted text', () => {
    expect(txtContentFromStrings([enc('z'.repeat(600))])).toBe('z'.repeat(600))
  })

  it.each([
    'acme-v2-1033',
    'v=spf1 mx -all',
    'say "hi" \\o/',
    'x'.repeat(300),
    'é'.repeat(200),
    '"a" "b"',
    '"say \\"hi\\""',
  ])('content -> presentation -> content is stable for %j', (content) => {
    const back = txtContentFromStrings(parseTxtStrings(txtPresentation(content)))
    expect(txtPresentation(back)).toBe(txtPresentation(content))
    if (!content.startsWith('"')) expect(back).toBe(content)
  })
})
