/**
 * Writing a name from its text: the short path for names of plain characters must give exactly the
 * octets and compression of `writeName(parseName(…))`, share its compression entries, and refuse
 * the same names.
 */
import { describe, expect, it } from 'vitest'
import {
  Compressor,
  NameError,
  parseName,
  writeName,
  writeLabelsBelow,
  writeNameBelow,
  writeNameText,
} from './names.ts'
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

/** Labels below `example.com` whose whole name is 253 characters (255 octets), and one more. */
const LONGEST_BELOW = `${Array.from({ length: 4 }, () => 'a'.repeat(59)).join('.')}.b`
const TOO_LONG_BELOW = `${LONGEST_BELOW}c`

/**
 * `name` written below `example.com` (copied at offset 2) by `write`, or null when refused; the
 * bytes after it.
 */
function writtenBelow(
  name: string,
  write: (w: ByteWriter, name: string) => boolean
): { octets: number[]; after: number[] } | null {
  const w = new ByteWriter()
  w.u16(0)
  writeNameText(w, 'example.com', new Compressor())
  const start = w.length
  const ok = write(w, name)
  // Whatever was refused left nothing behind: the next octets follow the parent's copy.
  w.u8(0xaa)
  const octets = [...w.finish()]
  if (!ok) {
    expect(octets.length).toBe(start + 1)
    return null
  }
  return { octets: octets.slice(start, -1), after: octets.slice(-1) }
}

describe('writeNameBelow', () => {
  const below = (name: string) =>
    writtenBelow(name, (w, text) => writeNameBelow(w, text, 'example.com', 2))

  it('takes a name of 255 octets and refuses one longer', () => {
    expect(below(`${LONGEST_BELOW}.example.com`)).not.toBeNull()
    expect(below(`${TOO_LONG_BELOW}.example.com`)).toBeNull()
  })

  it("writes the name's own labels as writeNameText does, then a pointer to the parent", () => {
    for (const name of ['www.example.com', 'a.b.c.example.com', `${'a'.repeat(63)}.example.com`]) {
      const labels = written([name.slice(0, -'.example.com'.length)], 'text', false).slice(2, -1)
      expect(below(name)).toEqual({ octets: [...labels, 0xc0, 2], after: [0xaa] })
    }
  })

  it('writes nothing for a name that is not plainly below the parent', () => {
    for (const name of [
      'example.com',
      'www.example.com.',
      'wwwexample.com',
      'www.example.org',
      'a..example.com',
      '.example.com',
      `${'a'.repeat(64)}.example.com`,
      'w w.example.com',
      'w\\.w.example.com',
      'caf\u00e9.example.com',
      'caf\u0169.example.com',
      'a\u0100.example.com',
    ]) {
      expect(below(name)).toBeNull()
    }
  })
})

describe('writeLabelsBelow', () => {
  const below = (labels: string) =>
    writtenBelow(labels, (w, text) => writeLabelsBelow(w, text, 'example.com'.length, 2))
  const wholeBelow = (labels: string) =>
    writtenBelow(`${labels}.example.com`, (w, text) => writeNameBelow(w, text, 'example.com', 2))

  it('writes the octets writeNameBelow writes for the whole name', () => {
    for (const labels of ['www', 'a.b.c', 'MiXed-_*.x', 'a'.repeat(63), LONGEST_BELOW]) {
      expect(below(labels)).not.toBeNull()
      expect(below(labels)).toEqual(wholeBelow(labels))
    }
  })

  it('writes nothing for labels that need writeNameText, or a whole name over 255 octets', () => {
    for (const labels of [
      '',
      'a..b',
      '.a',
      'a.',
      'a'.repeat(64),
      'w w',
      'w\\.w',
      'caf\u00e9',
      'a\u0100',
      TOO_LONG_BELOW,
    ]) {
      expect(below(labels)).toBeNull()
    }
  })
})
