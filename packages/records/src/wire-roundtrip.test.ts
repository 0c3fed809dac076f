/**
 * Property: whatever record validation accepts survives a zone transfer. Its presentation form is
 * encoded into a DNS message, the message decoded as a secondary reads a transfer (presentation
 * text of each record's wire form), and that text read back by `fromPresentation` is the same
 * stored record, for every type: a type whose wire form came back as text the records API does not
 * read would be skipped by a secondary zone, and the record lost.
 */
import { decodeMessage, encodeRdata, encodeResponse } from '@edgedns/dns-wire'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromPresentation, normalizeContent, toPresentation } from './content.ts'
import { RECORD_TYPES, TYPE_CODES, type RecordType } from './record-type.ts'
import type { RecordFields, StoredRecord } from './spec.ts'
import {
  acceptedRecord,
  anyRecord,
  recordOf,
  validSvcParams,
} from './test-helpers/arbitrary-records.ts'

const ORIGIN = 'example.com'

/**
 * Types compared by their octets on the wire, not their stored fields: TXT (character-strings may
 * be split or quoted otherwise) and LOC (a size or precision on the wire is one digit and a power
 * of ten, so a stored 0.11 m goes out, in any server's transfer, as 0.10 m).
 */
const BY_OCTETS: ReadonlySet<RecordType> = new Set<RecordType>(['TXT', 'LOC'])

const octets = (r: StoredRecord): string =>
  Array.from(encodeRdata(TYPE_CODES[r.type], toPresentation(r)), (b) =>
    b.toString(16).padStart(2, '0')
  ).join('')

function transferred(inputs: RecordFields[]): void {
  const stored = inputs.map(acceptedRecord).filter((r): r is StoredRecord => r !== null)
  const answer = stored.map((r, i) => ({
    name: `r${i}.${ORIGIN}`,
    type: TYPE_CODES[r.type],
    ttl: 300,
    rdata: toPresentation(r),
  }))
  const received = decodeMessage(encodeResponse({ id: 1, rcode: 0, answer })).answer
  expect(received).toHaveLength(stored.length)
  received.forEach((rr, i) => {
    const want = stored[i]!
    const back = normalizeContent(fromPresentation(want.type, rr.data, `${ORIGIN}.`))
    const got = { type: want.type, ...back }
    if (BY_OCTETS.has(want.type)) expect(octets(got), rr.data).toBe(octets(want))
    else expect(got, `${rr.type} ${rr.data}`).toEqual(want)
  })
}

describe('accepted records survive a zone transfer (wire form read back as presentation)', () => {
  it.each(RECORD_TYPES)('%s', (type: RecordType) => {
    fc.assert(fc.property(fc.array(recordOf(type), { minLength: 1, maxLength: 20 }), transferred), {
      numRuns: 40,
    })
  })

  it('a mixed zone of every type', () => {
    fc.assert(fc.property(fc.array(anyRecord, { maxLength: 60 }), transferred), { numRuns: 40 })
  })
})

describe('HTTPS and SVCB records with SvcParams the API accepts survive a zone transfer', () => {
  const record = (type: 'HTTPS' | 'SVCB') =>
    fc
      .record({
        priority: fc.integer({ min: 1, max: 3 }),
        target: fc.constantFrom('.', 'svc.example.net'),
        value: validSvcParams,
      })
      .map((data): RecordFields => ({ type, data }))

  it.each(['HTTPS', 'SVCB'] as const)('%s', (type) => {
    fc.assert(
      fc.property(fc.array(record(type), { minLength: 1, maxLength: 10 }), (inputs) => {
        // Built to be accepted: a refusal is a fault of the generator, not a record skipped.
        for (const r of inputs) expect(acceptedRecord(r), JSON.stringify(r)).not.toBeNull()
        transferred(inputs)
      }),
      { numRuns: 60 }
    )
  })
})
