import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { txtPresentation } from '@edgedns/records'
import {
  fromRow,
  identityContent,
  RECORD_COLUMNS,
  toRow,
  toRowValues,
  sameRecord,
  TXT_KEY_CACHE_CHARS,
  txtKeyCacheChars,
  type DnsRecord,
} from './model.ts'

const base: DnsRecord = {
  id: 'a'.repeat(32),
  zoneId: 'b'.repeat(32),
  name: 'www.example.com',
  type: 'A',
  content: '192.0.2.1',
  data: null,
  priority: null,
  ttl: 300,
  proxied: false,
  comment: null,
  tags: [],
  settings: {},
  createdOn: '2026-01-01T00:00:00.000Z',
  modifiedOn: '2026-01-01T00:00:00.000Z',
  commentModifiedOn: null,
  tagsModifiedOn: null,
}

// Few distinct values, so that equal and unequal pairs both come up often.
const tags = fc.array(fc.constantFrom('a', 'b', 'env:prod'), { maxLength: 3 })
const settings = fc.oneof(
  fc.constant({}),
  fc.record({ ipv4_only: fc.boolean() }),
  fc.record({ ipv6_only: fc.boolean(), ipv4_only: fc.boolean() }),
  fc.record({ ipv4_only: fc.boolean(), ipv6_only: fc.boolean() })
)
const data = fc.oneof(
  fc.constant(null),
  fc.constant({}),
  fc.record({ port: fc.constantFrom(1, 2), target: fc.constantFrom('a.', 'b.') })
)

describe('sameRecord', () => {
  it('calls two records the same exactly when their data, tags and settings serialise alike', () => {
    fc.assert(
      fc.property(tags, tags, settings, settings, data, data, (t1, t2, s1, s2, d1, d2) => {
        const a = { ...base, tags: t1, settings: s1, data: d1 }
        const b = { ...base, tags: t2, settings: s2, data: d2 }
        const serialisedAlike = JSON.stringify([t1, s1, d1]) === JSON.stringify([t2, s2, d2])
        expect(sameRecord(a, b)).toBe(serialisedAlike)
      }),
      { numRuns: 2000 }
    )
  })

  it('tells records apart by any field a user sets', () => {
    for (const change of [
      { name: 'mail.example.com' },
      { content: '192.0.2.2' },
      { ttl: 1 },
      { proxied: true },
      { comment: 'c' },
      { priority: 10 },
    ])
      expect(sameRecord(base, { ...base, ...change })).toBe(false)
  })
})

describe('the TXT identity cache', () => {
  it('keeps what it holds within its character budget, however large the contents', () => {
    // Long distinct contents (a large batch or import of big TXT records) each parsed once.
    for (let i = 0; i < 600; i++) {
      const content = `${i} ${'x'.repeat(4_000)}`
      expect(identityContent({ type: 'TXT', content })).toBe(txtPresentation(content))
    }
    expect(txtKeyCacheChars()).toBeGreaterThan(0)
    expect(txtKeyCacheChars()).toBeLessThanOrEqual(TXT_KEY_CACHE_CHARS)
  })

  it('answers the same key whether cached or not', () => {
    const content = 'v=spf1 -all'
    expect(identityContent({ type: 'TXT', content })).toBe('"v=spf1 -all"')
    expect(identityContent({ type: 'TXT', content })).toBe('"v=spf1 -all"')
    expect(identityContent({ type: 'TXT', content: '"v=spf1 -all"' })).toBe('"v=spf1 -all"')
  })
})

describe('the record row', () => {
  const full: DnsRecord = {
    ...base,
    type: 'MX',
    content: 'mail.example.com',
    data: { note: 1 },
    priority: 10,
    proxied: true,
    comment: 'c',
    tags: ['a:b'],
    settings: { ipv4_only: true },
    commentModifiedOn: '2026-01-02T00:00:00.000Z',
    tagsModifiedOn: '2026-01-03T00:00:00.000Z',
  }

  it('reads back what it writes', () => {
    for (const r of [base, full]) expect(fromRow(toRow(r))).toEqual(r)
  })

  it('gives bulk-insert values in the column order of the schema', () => {
    const row = toRow(full)
    expect(Object.keys(row)).toEqual(RECORD_COLUMNS)
    expect(toRowValues(full)).toEqual(Object.values(row))
  })
})
