import { describe, expect, it } from 'vitest'
import { formatTxtStrings, parseTxtStrings } from './txt.ts'

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
