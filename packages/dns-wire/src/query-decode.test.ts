import packet from 'dns-packet'
import { describe, expect, it } from 'vitest'
import { DnsFormatError } from './errors.ts'
import { decodeQuery, peekHeader } from './query.ts'

const bytes = (p: packet.Packet): Uint8Array => new Uint8Array(packet.encode(p))
const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s.replace(/\s+/g, ''), 'hex'))

/** Header: id 0xabcd, RD, 1 question; then the given question/record bytes. */
const HEADER = 'abcd 0100 0001 0000 0000 0000'
const WWW_EXAMPLE_COM = '03777777 076578616d706c65 03636f6d 00'

function formatError(input: Uint8Array): DnsFormatError {
  try {
    decodeQuery(input)
  } catch (err) {
    if (err instanceof DnsFormatError) return err
    throw err
  }
  throw new Error('decoded without error')
}

describe('decodeQuery', () => {
  it('reads id, flags, the question with its case, and no EDNS', () => {
    const q = decodeQuery(
      bytes({
        id: 4660,
        flags: packet.RECURSION_DESIRED | packet.CHECKING_DISABLED,
        questions: [{ name: 'WwW.Example.COM', type: 'AAAA', class: 'IN' }],
      })
    )
    expect(q).toEqual({
      id: 4660,
      opcode: 0,
      rd: true,
      cd: true,
      ad: false,
      question: { name: 'WwW.Example.COM', type: 28, class: 1 },
      edns: null,
    })
  })

  it('reads EDNS payload size, version and the DO bit', () => {
    const q = decodeQuery(
      bytes({
        id: 1,
        questions: [{ name: 'example.com', type: 'DNSKEY' }],
        additionals: [
          {
            type: 'OPT',
            name: '.',
            udpPayloadSize: 4096,
            flags: packet.DNSSEC_OK,
            options: [{ code: 12, data: Buffer.alloc(8) }],
          } as packet.Answer,
        ],
      })
    )
    expect(q.edns).toEqual({ udpPayloadSize: 4096, version: 0, do: true, options: [12] })
  })

  it('reads an EDNS version above 0 (for BADVERS) and floors tiny payload sizes to 512', () => {
    const q = decodeQuery(
      hex(`abcd 0000 0001 0000 0000 0001 ${WWW_EXAMPLE_COM} 0001 0001 00 0029 0100 00 01 0000 0000`)
    )
    expect(q.edns).toEqual({ udpPayloadSize: 512, version: 1, do: false, options: [] })
  })

  it('accepts class ANY, the root name and an unknown type', () => {
    const q = decodeQuery(hex(`0001 0000 0001 0000 0000 0000 00 ff00 00ff`))
    expect(q.question).toEqual({ name: '', type: 0xff00, class: 255 })
  })

  it.each([
    ['class CH', '0001 0003', { type: 1, class: 3 }],
    ['class HS', '0001 0004', { type: 1, class: 4 }],
    ['class NONE', '0001 00fe', { type: 1, class: 254 }],
    ['OPT as the question type', '0029 0001', { type: 41, class: 1 }],
    ['TSIG as the question type', '00fa 0001', { type: 250, class: 1 }],
  ])('decodes a well-formed question with %s (the resolver judges it)', (_, tail, expected) => {
    const q = decodeQuery(hex(`0001 0000 0001 0000 0000 0000 ${WWW_EXAMPLE_COM} ${tail}`))
    expect(q.question).toEqual({ name: 'www.example.com', ...expected })
  })

  it('escapes special octets in the question name', () => {
    const q = decodeQuery(hex(`0001 0000 0001 0000 0000 0000 03 612e62 02 2009 00 0001 0001`))
    expect(q.question.name).toBe('a\\.b.\\032\\009')
  })

  it('reports a non-QUERY opcode instead of failing', () => {
    const q = decodeQuery(hex(`0001 2800 0001 0000 0000 0000 ${WWW_EXAMPLE_COM} 0006 0001`))
    expect(q.opcode).toBe(5)
  })

  it('reads a query with a TSIG record last in the additional section, after OPT', () => {
    const msg = `${HEADER.replace(/0000$/, '0002')} ${WWW_EXAMPLE_COM} 0001 0001 00 0029 1000 00000000 0000 01 6b 00 00fa 00ff 00000000 0000`
    expect(decodeQuery(hex(msg)).edns).not.toBeNull()
  })

  it('follows a backward compression pointer in a later record', () => {
    const msg = `${HEADER.replace(/0000$/, '0001')} ${WWW_EXAMPLE_COM} 0001 0001 c010 0010 0001 00000000 0000`
    expect(decodeQuery(hex(msg)).question.name).toBe('www.example.com')
  })

  const malformed: [string, string][] = [
    ['an empty message', ''],
    ['a short header', 'abcd 0100 0001'],
    ['a response', `abcd 8100 0001 0000 0000 0000 ${WWW_EXAMPLE_COM} 0001 0001`],
    ['no question', 'abcd 0100 0000 0000 0000 0000'],
    [
      'two questions',
      `abcd 0100 0002 0000 0000 0000 ${WWW_EXAMPLE_COM} 0001 0001 ${WWW_EXAMPLE_COM} 0001 0001`,
    ],
    ['a truncated question', `${HEADER} ${WWW_EXAMPLE_COM} 0001`],
    ['a label past the end', `${HEADER} 0a 6162`],
    ['a missing root label', `${HEADER} 03 777777`],
    ['a 64-octet label', `${HEADER} 40 ${'61'.repeat(64)} 00 0001 0001`],
    [
      'a name over 255 octets',
      `${HEADER} ${'3f' + '61'.repeat(63)}${('3f' + '61'.repeat(63)).repeat(3)}00 0001 0001`,
    ],
    ['a self-pointing name', `${HEADER} c00c 0001 0001`],
    ['a forward pointer', `${HEADER} c010 0001 0001 03 777777 00`],
    [
      'a pointer loop in a record',
      `${HEADER.replace(/0000$/, '0001')} ${WWW_EXAMPLE_COM} 0001 0001 c021 c01f 0001 00000000 0000`,
    ],
    ['the reserved label type 01', `${HEADER} 41 00 0001 0001`],
    ['the extended label type 10', `${HEADER} 81 00 0001 0001`],
    ['trailing garbage', `${HEADER} ${WWW_EXAMPLE_COM} 0001 0001 ff`],
    [
      'a record claimed but missing',
      `${HEADER.replace(/0000$/, '0001')} ${WWW_EXAMPLE_COM} 0001 0001`,
    ],
    [
      'rdata past the end',
      `${HEADER.replace(/0000$/, '0001')} ${WWW_EXAMPLE_COM} 0001 0001 00 0001 0001 00000000 0010 00`,
    ],
    [
      'two OPT records',
      `${HEADER.replace(/0000$/, '0002')} ${WWW_EXAMPLE_COM} 0001 0001 00 0029 1000 00000000 0000 00 0029 1000 00000000 0000`,
    ],
    [
      'OPT with a non-root owner',
      `${HEADER.replace(/0000$/, '0001')} ${WWW_EXAMPLE_COM} 0001 0001 01 61 00 0029 1000 00000000 0000`,
    ],
    [
      'OPT in the answer section',
      `abcd 0100 0001 0001 0000 0000 ${WWW_EXAMPLE_COM} 0001 0001 00 0029 1000 00000000 0000`,
    ],
    [
      'a TSIG record before the last additional record',
      `${HEADER.replace(/0000$/, '0002')} ${WWW_EXAMPLE_COM} 0001 0001 01 6b 00 00fa 00ff 00000000 0000 00 0029 1000 00000000 0000`,
    ],
    [
      'a TSIG record of class IN',
      `${HEADER.replace(/0000$/, '0001')} ${WWW_EXAMPLE_COM} 0001 0001 01 6b 00 00fa 0001 00000000 0000`,
    ],
    [
      'a TSIG record in the answer section',
      `abcd 0100 0001 0001 0000 0000 ${WWW_EXAMPLE_COM} 0001 0001 01 6b 00 00fa 00ff 00000000 0000`,
    ],
    [
      'an EDNS option past the OPT record',
      `${HEADER.replace(/0000$/, '0001')} ${WWW_EXAMPLE_COM} 0001 0001 00 0029 1000 00000000 0004 000c 0008`,
    ],
  ]

  it.each(malformed)('rejects %s with DnsFormatError', (_, text) => {
    expect(() => decodeQuery(hex(text))).toThrow(DnsFormatError)
  })

  it('keeps the header of a malformed message for a FORMERR reply', () => {
    const err = formatError(hex(`abcd 7910 0001 0000 0000 0000 c00c 0001 0001`))
    expect(err.header).toEqual({ id: 0xabcd, opcode: 15, rd: true, cd: true })
  })

  it('has no header when fewer than 12 bytes arrived', () => {
    expect(formatError(hex('abcd 01')).header).toBeUndefined()
    expect(peekHeader(hex('abcd 01'))).toBeUndefined()
  })

  it('rejects a non-Uint8Array with DnsFormatError', () => {
    expect(() => decodeQuery('abc' as unknown as Uint8Array)).toThrow(DnsFormatError)
  })
})
