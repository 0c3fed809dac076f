import { describe, expect, it } from 'vitest'
import { answerKey } from './answer-cache.ts'
import { plainDnsQuery } from './plain-query.ts'

// A query for example.com/A (ID 0), as RFC 8484 §4.1.1 spells it.
const EXAMPLE = 'AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB'

/** The base64url text of `bytes` (no padding). */
const b64 = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

describe('plainDnsQuery', () => {
  it('decodes the dns parameter of /dns-query?dns=… with nothing else', () => {
    const plain = plainDnsQuery(`https://doh.example/dns-query?dns=${EXAMPLE}`, 65535)
    expect(plain?.bytes.length).toBe(33)
    expect(plain?.bytes[5]).toBe(1) // QDCOUNT
    expect(plainDnsQuery(`http://127.0.0.1:8787/dns-query?dns=${EXAMPLE}`, 65535)).not.toBeNull()
  })

  it('takes padded base64url too', () => {
    expect(plainDnsQuery('https://h/dns-query?dns=AAABAAABAAAAAAAAAA==', 65535)?.bytes.length).toBe(
      13
    )
  })

  it('leaves every other form to the general path', () => {
    for (const url of [
      `https://h/dns-query?dns=${EXAMPLE}&ct=application/dns-json`,
      `https://h/dns-query?ct=x&dns=${EXAMPLE}`,
      `https://h/dns-query?dns=${EXAMPLE}#frag`,
      `https://h/dns-query?dns=${EXAMPLE.slice(0, 20)}%41${EXAMPLE.slice(21)}`,
      `https://h/dns-query?dns=AAAB+AAB`,
      `https://h/dns-query?dns=`,
      `https://h/dns-query?name=example.com`,
      `https://h/dns-query/?dns=${EXAMPLE}`,
      `https://h/other/dns-query?dns=${EXAMPLE}`,
      `https://h/./dns-query?dns=${EXAMPLE}`,
      `https://h/dns-query`,
      `/dns-query?dns=${EXAMPLE}`,
    ])
      expect(plainDnsQuery(url, 65535), url).toBeNull()
  })

  it('leaves a message over the size limit to the general path (which answers 413)', () => {
    expect(plainDnsQuery(`https://h/dns-query?dns=${EXAMPLE}`, 32)).toBeNull()
    const long = 'A'.repeat(Math.ceil((100 * 4) / 3) + 8)
    expect(plainDnsQuery(`https://h/dns-query?dns=${long}`, 100)).toBeNull()
  })
})

describe('the answer-cache key of a plain query', () => {
  const url = (bytes: Uint8Array): string => `https://h/dns-query?dns=${b64(bytes)}`
  const query = (id: number, tail: number[]): Uint8Array =>
    new Uint8Array([id >> 8, id & 255, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, ...tail])

  it('does not depend on the ID', () => {
    const a = plainDnsQuery(url(query(0, [0, 0, 1, 0, 1])), 65535)!
    const b = plainDnsQuery(url(query(0xbeef, [0, 0, 1, 0, 1])), 65535)!
    expect(a.key).toBe(b.key)
  })

  it('differs whenever a byte after the ID differs, byte 2 included', () => {
    const base = query(7, [0, 0, 1, 0, 1])
    const keys = new Set([plainDnsQuery(url(base), 65535)!.key])
    for (let i = 2; i < base.length; i++) {
      const other = base.slice()
      other[i] = other[i]! ^ 1
      keys.add(plainDnsQuery(url(other), 65535)!.key)
    }
    expect(keys.size).toBe(base.length - 1)
  })

  it('never equals a key made from bytes, whatever the bytes spell', () => {
    const plain = plainDnsQuery(url(query(0, [0, 0, 1, 0, 1])), 65535)!
    // A message whose bytes after the ID spell the text key itself.
    const spelled = Uint8Array.from([0, 0, ...[...plain.key!].map((c) => c.charCodeAt(0))])
    expect(answerKey(spelled)).not.toBe(plain.key)
    expect(answerKey(spelled).charCodeAt(0)).not.toBe(plain.key!.charCodeAt(0))
    // One byte a character, as V8 keeps the keys in memory (what the cache counts).
    expect([...plain.key!].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true)
  })

  it('is absent below a DNS header', () => {
    expect(plainDnsQuery('https://h/dns-query?dns=AAABAAAB', 65535)?.key).toBeUndefined()
  })
})
