import fc from 'fast-check'
import packet from 'dns-packet'
import { describe, expect, it } from 'vitest'
import { DnsFormatError } from './errors.ts'
import { decodeQuery } from './query.ts'
import { encodeResponse, replyTo } from './response.ts'

const NAMES = [
  'example.com',
  'WWW.Example.COM',
  'a.b.c.d.example.org',
  '_sip._tcp.example.net',
  '.',
]

const validQuery = fc
  .record({
    id: fc.integer({ min: 0, max: 0xffff }),
    name: fc.constantFrom(...NAMES),
    type: fc.constantFrom('A', 'AAAA', 'TXT', 'MX', 'ANY', 'NS'),
    edns: fc.boolean(),
  })
  .map(({ id, name, type, edns }) => {
    const p: packet.Packet = {
      id,
      flags: packet.RECURSION_DESIRED,
      questions: [{ name, type: type as packet.RecordType }],
      additionals: edns
        ? [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: 4096,
              flags: packet.DNSSEC_OK,
            } as packet.Answer,
          ]
        : [],
    }
    return new Uint8Array(packet.encode(p))
  })

/** A valid query with a few bytes overwritten, inserted or cut. */
const mutated = fc
  .tuple(
    validQuery,
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom('set', 'insert', 'delete')
      ),
      {
        minLength: 1,
        maxLength: 6,
      }
    ),
    fc.option(fc.nat(), { nil: undefined })
  )
  .map(([bytes, edits, cut]) => {
    const out = [...bytes]
    for (const [pos, value, op] of edits) {
      const i = pos % (out.length + 1)
      if (op === 'set' && i < out.length) out[i] = value
      else if (op === 'insert') out.splice(i, 0, value)
      else out.splice(i, 1)
    }
    return Uint8Array.from(cut === undefined ? out : out.slice(0, cut % (out.length + 1)))
  })

function decodeOrFormErr(bytes: Uint8Array): void {
  try {
    const q = decodeQuery(bytes)
    // Anything accepted must also be answerable.
    encodeResponse(
      replyTo(q, { rcode: 'REFUSED', aa: false, answer: [], authority: [], additional: [] })
    )
  } catch (err) {
    if (!(err instanceof DnsFormatError)) throw err
  }
}

describe('decodeQuery on hostile input', () => {
  it('decodes every generated valid query', () => {
    fc.assert(
      fc.property(validQuery, (b) => {
        expect(decodeQuery(b).question.type).toBeGreaterThan(0)
      })
    )
  })

  it('only returns or throws DnsFormatError for random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), decodeOrFormErr), { numRuns: 3000 })
  })

  it('only returns or throws DnsFormatError for mutated queries', () => {
    fc.assert(fc.property(mutated, decodeOrFormErr), { numRuns: 5000 })
  })

  it('only returns or throws DnsFormatError for headers claiming many records', () => {
    const arb = fc
      .tuple(
        validQuery,
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 })
      )
      .map(([b, counts]) => {
        const out = Uint8Array.from(b)
        counts.forEach((c, i) => {
          out[4 + i * 2] = c >> 8
          out[5 + i * 2] = c & 0xff
        })
        return out
      })
    fc.assert(fc.property(arb, decodeOrFormErr), { numRuns: 2000 })
  })
})
