/**
 * Property: whatever record validation accepts has a presentation form that is one zone-file line,
 * that the zone-file parser and fromPresentation read back to the same stored record, and that
 * encodes on the wire. The zone file is written and read by the serializer and parser the API's
 * export and import use (the end-to-end test adds named-checkzone and the API's own adapters).
 */
import { encodeRdata } from '@edgedns/dns-wire'
import { parseZoneFile, serializeZoneFile } from '@edgedns/zonefile'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromPresentation, normalizeContent, toPresentation } from './content.ts'
import { RECORD_TYPES, TYPE_CODES, type RecordType } from './record-type.ts'
import type { RecordFields, StoredRecord } from './spec.ts'
import { acceptedRecord, anyRecord, recordOf } from './test-helpers/arbitrary-records.ts'

const ORIGIN = 'example.com'

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')

/**
 * What must survive the round trip. TXT content may be spelled differently after it (kept as sent
 * on create, written from the file's character-strings on import): it is the same record when its
 * octets on the wire are the same.
 */
function comparable(r: StoredRecord): unknown {
  if (r.type !== 'TXT') return r
  return { ...r, content: hex(encodeRdata(TYPE_CODES.TXT, toPresentation(r))) }
}

function roundTrip(inputs: RecordFields[]): void {
  const stored = inputs.map(acceptedRecord).filter((r): r is StoredRecord => r !== null)
  const text = serializeZoneFile({
    origin: ORIGIN,
    records: stored.map((r, i) => ({
      name: `r${i}.${ORIGIN}`,
      ttl: 300,
      type: r.type,
      rdata: toPresentation(r),
    })),
  })
  const entries = parseZoneFile(text, { origin: ORIGIN })
  expect(entries).toHaveLength(stored.length)
  for (const entry of entries) {
    const i = Number(/^r(\d+)\./.exec(entry.name)![1])
    const want = stored[i]!
    const back = normalizeContent(fromPresentation(want.type, entry.rdata, `${entry.origin}.`))
    expect(
      comparable({ type: want.type, ...back }),
      `line: ${text.split('\n')[entry.line - 1]}`
    ).toEqual(comparable(want))
    expect(() => encodeRdata(TYPE_CODES[want.type], toPresentation(want))).not.toThrow()
  }
}

describe('accepted records survive export, import and wire encoding', () => {
  it('an HTTPS dohpath holding a quote and a parenthesis, and a value holding a line break', () => {
    const inputs: RecordFields[] = [
      { type: 'HTTPS', data: { priority: 1, target: '.', value: 'dohpath=/q"(x{?dns}' } },
      { type: 'SVCB', data: { priority: 1, target: '.', value: 'key65000="a\nb" alpn=h2' } },
    ]
    expect(inputs.map((f) => normalizeContent(f).content)).toEqual([
      '1 . dohpath="/q\\"(x{?dns}"',
      '1 . alpn="h2" key65000="a\\010b"',
    ])
    roundTrip(inputs)
  })

  it.each(RECORD_TYPES)('%s', (type: RecordType) => {
    fc.assert(fc.property(fc.array(recordOf(type), { minLength: 1, maxLength: 20 }), roundTrip), {
      numRuns: 40,
    })
  })

  it('a mixed zone of every type', () => {
    fc.assert(fc.property(fc.array(anyRecord, { maxLength: 60 }), roundTrip), { numRuns: 40 })
  })
})
