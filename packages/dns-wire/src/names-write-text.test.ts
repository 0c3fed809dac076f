/**
 * Writing a name from its text: the short path for names of plain characters must give exactly the
 * octets and compression of `writeName(parseName(…))`, share its compression entries, and refuse
 * the same names.
 */
import { describe, expect, it } from 'vitest'
import { Compressor, NameError, parseName, writeName, writeNameText } from './names.ts'
import { ByteWriter } from './writer.ts'

/** The octets of `names` written one after another into one message with one compressor. */
function written(names: string[], how: 'text' | 'labels' | 'mixed', compress = true): number[] {
  const w = new ByteWriter()
  w.u16(0) // names start at a nonzero offset, as after a header
  const comp = compress ? new Compressor() : undefined
  names.forEach((name, i) => {
    if (how === 'text' || (how === 'mixed' && i % 2 === 0)) writeNameText(w, name, comp)
    else writeName(w, parseName(name), comp)
  })
  return [...w.finish()]
}

const NAMES = [
  'example.com',
  'www.example.com.',
  'WWW.Example.COM',
  'a.b.www.example.com',
  '*.wild.example.com',
  '_sip._udp.example.com.',
  'example.net',
  'www.\\069xample.com',
  'we\\.ird.example.com',
  'www.example.com',
  `${'a'.repeat(63)}.example.com`,
  '.',
  '',
  'x-1.example.com',
]

describe('writeNameText', () => {
  it('writes the octets and compression pointers writeName writes, and shares its entries', () => {
    for (const how of ['text', 'mixed'] as const) {
      expect(written(NAMES, how)).toEqual(written(NAMES, 'labels'))
      expect(written(NAMES, how, false)).toEqual(written(NAMES, 'labels', false))
    }
    expect(written([...NAMES].reverse(), 'mixed')).toEqual(written([...NAMES].reverse(), 'labels'))
  })

  it('refuses the names parseName refuses', () => {
    for (const bad of [
      'a..b',
      '.a',
      `${'a'.repeat(64)}.com`,
      Array.from({ length: 64 }, () => 'abc').join('.'),
      'a b.com',
      'a\u00e9.com',
    ]) {
      expect(() => parseName(bad)).toThrow(NameError)
      expect(() => writeNameText(new ByteWriter(), bad, new Compressor())).toThrow(NameError)
    }
  })
})
