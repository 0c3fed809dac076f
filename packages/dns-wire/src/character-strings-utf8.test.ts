import { describe, expect, it } from 'vitest'
import { TYPE_CODES as T } from '@edgedns/dns-facts'
import { encodeRdata } from './rdata/index.ts'
import { hexOf } from './test-oracle.ts'

/** U+1F600 (😀) is one code point, two UTF-16 code units, four UTF-8 octets. */
const GRIN = '😀'
const GRIN_UTF8 = 'f09f9880'
const REPLACEMENT_UTF8 = 'efbfbd'
const utf8Hex = (s: string): string => hexOf(new TextEncoder().encode(s))

/** Every type whose rdata holds character-strings, with 😀 in each of them. */
const cases: [string, number, string, string][] = [
  ['TXT', T.TXT, `"hi ${GRIN}"`, `07 ${utf8Hex(`hi ${GRIN}`)}`],
  ['TXT, escaped', 16, `"\\${GRIN}"`, `04 ${GRIN_UTF8}`],
  [
    'CAA value',
    T.CAA,
    `0 issue "ca${GRIN}.example"`,
    `00 05 6973737565 ${utf8Hex(`ca${GRIN}.example`)}`,
  ],
  [
    'URI target',
    T.URI,
    `1 2 "https://x.example/${GRIN}"`,
    `0001 0002 ${utf8Hex(`https://x.example/${GRIN}`)}`,
  ],
  [
    'NAPTR flags, services, regexp',
    35,
    `1 2 "${GRIN}" "E2U+${GRIN}" "!^.*$!${GRIN}!" .`,
    `0001 0002 04 ${GRIN_UTF8} 08 ${utf8Hex(`E2U+${GRIN}`)} 0b ${utf8Hex(`!^.*$!${GRIN}!`)} 00`,
  ],
  [
    'HINFO',
    T.HINFO,
    `"cpu${GRIN}" "${GRIN}os"`,
    `07 ${utf8Hex(`cpu${GRIN}`)} 06 ${utf8Hex(`${GRIN}os`)}`,
  ],
  ['SVCB generic value', T.SVCB, `1 . key667="${GRIN}"`, `0001 00 029b 0004 ${GRIN_UTF8}`],
  ['SVCB alpn id', T.SVCB, `1 . alpn="h${GRIN}"`, `0001 00 0001 0006 05 68${GRIN_UTF8}`],
]

describe('characters outside the BMP in character-strings', () => {
  it.each(cases)(
    '%s encodes a surrogate pair as one 4-octet UTF-8 character',
    (_, type, text, wire) => {
      const out = hexOf(encodeRdata(type, text))
      expect(out).toBe(wire.replace(/\s+/g, ''))
      expect(out).toContain(GRIN_UTF8)
      expect(out).not.toContain(REPLACEMENT_UTF8)
    }
  )

  it('keeps BMP text and \\DDD escapes as before', () => {
    expect(hexOf(encodeRdata(16, '"é\\233\\""'))).toBe('04 c3a9 e9 22'.replace(/\s+/g, ''))
  })
})
