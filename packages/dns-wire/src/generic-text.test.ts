import { describe, expect, it } from 'vitest'
import { RdataError } from './errors.ts'
import { fromGenericText } from './rdata/decode.ts'

describe('fromGenericText', () => {
  it("gives a known type's own presentation of RFC 3597 octets", () => {
    expect(fromGenericText(1, '\\# 4 C0000201')).toBe('192.0.2.1')
    expect(fromGenericText(15, '\\# 20 000a046d61696c076578616d706c65036e657400')).toBe(
      '10 mail.example.net.'
    )
    expect(fromGenericText(16, '\\# 6 0568656c 6c6f')).toBe('"hello"')
  })

  it('returns text that is not generic as given', () => {
    expect(fromGenericText(1, '192.0.2.1')).toBe('192.0.2.1')
    expect(fromGenericText(16, '"\\# 1 00"')).toBe('"\\# 1 00"')
  })

  it('keeps octets that are not the type shape generic', () => {
    expect(fromGenericText(1, '\\# 3 C00002')).toBe('\\# 3 c00002')
  })

  it('refuses a length that does not match the octets', () => {
    expect(() => fromGenericText(1, '\\# 5 C0000201')).toThrow(RdataError)
  })
})
