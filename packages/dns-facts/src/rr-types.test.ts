import { describe, expect, it } from 'vitest'
import { API_TYPES, RR_TYPES, TYPE_CODES, typeFact, typeFromName, typeName } from './rr-types.ts'

const T = TYPE_CODES

describe('the record-type table', () => {
  it('declares each name and each code once, in ascending code order', () => {
    const names = RR_TYPES.map((t) => t.name)
    const codes = RR_TYPES.map((t) => t.code)
    expect(new Set(names).size).toBe(names.length)
    expect(new Set(codes).size).toBe(codes.length)
    expect(codes).toEqual([...codes].sort((a, b) => a - b))
  })

  it('lists the API types alphabetically, none of them meta or opaque', () => {
    expect(API_TYPES).toEqual([...API_TYPES].sort())
    for (const t of API_TYPES)
      expect(['meta', 'opaque']).not.toContain(typeFact(TYPE_CODES[t])!.rdata)
  })

  it.each([
    ['AAAA', T.AAAA],
    ['aaaa', 28],
    ['28', 28],
    ['TYPE28', 28],
    ['type65', 65],
    ['HTTPS', T.HTTPS],
    ['URI', T.URI],
    ['CAA', T.CAA],
    ['TYPE65535', 65535],
    ['EUI48', 108],
  ])('typeFromName(%s) = %i', (text, code) => expect(typeFromName(text)).toBe(code))

  it.each(['NOPE', 'TYPE65536', '-1', '', 'TYPE'])('typeFromName(%s) is undefined', (text) => {
    expect(typeFromName(text)).toBeUndefined()
  })

  it('names unknown codes per RFC 3597 and round-trips every known one', () => {
    expect(typeName(65280)).toBe('TYPE65280')
    for (const t of RR_TYPES) expect(typeFromName(typeName(t.code))).toBe(t.code)
  })
})
