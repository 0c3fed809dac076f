import { describe, expect, it } from 'vitest'
import { TYPE_CODES, typeFromName, typeName } from './types.ts'

describe('type names', () => {
  it.each([
    ['AAAA', 28],
    ['aaaa', 28],
    ['28', 28],
    ['TYPE28', 28],
    ['type65', 65],
    ['HTTPS', 65],
    ['SVCB', 64],
    ['URI', 256],
    ['CAA', 257],
    ['TYPE65535', 65535],
  ])('typeFromName(%s) = %i', (text, code) => expect(typeFromName(text)).toBe(code))

  it.each(['NOPE', 'TYPE65536', '-1', '', 'TYPE'])('typeFromName(%s) is undefined', (text) => {
    expect(typeFromName(text)).toBeUndefined()
  })

  it('names unknown codes per RFC 3597', () => {
    expect(typeName(65280)).toBe('TYPE65280')
    expect(typeName(TYPE_CODES.HTTPS)).toBe('HTTPS')
  })
})
