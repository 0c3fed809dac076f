import { describe, expect, it } from 'vitest'
import { RecordError } from './errors.ts'
import { isProxiable, PROXIABLE_TYPES } from './proxy.ts'
import { AUTO_TTL_SECONDS, validateTtl } from './ttl.ts'

describe('validateTtl', () => {
  it.each([1, 60, 300, 86400])('accepts %j', (ttl) => {
    expect(validateTtl(ttl)).toBe(ttl)
  })

  it('treats a missing TTL as automatic', () => {
    expect(validateTtl(undefined)).toBe(1)
    expect(AUTO_TTL_SECONDS).toBe(300)
  })

  it.each([0, 2, 59, 86401, 300.5, '300', null, -1, Number.NaN])('rejects %j with 9021', (ttl) => {
    expect(() => validateTtl(ttl)).toThrow(RecordError)
    expect(() => validateTtl(ttl)).toThrow(
      'Invalid TTL. Must be between 60 and 86400 seconds, or 1 for automatic.'
    )
    try {
      validateTtl(ttl)
    } catch (e) {
      expect((e as RecordError).code).toBe(9021)
    }
  })
})

describe('proxiable', () => {
  it('is true exactly for A, AAAA and CNAME', () => {
    expect([...PROXIABLE_TYPES].sort()).toEqual(['A', 'AAAA', 'CNAME'])
    expect(isProxiable('A', '192.0.2.1')).toBe(true)
    expect(isProxiable('AAAA', '2001:db8::1')).toBe(true)
    expect(isProxiable('CNAME', 'target.example.com')).toBe(true)
    expect(isProxiable('MX', 'mx.example.com')).toBe(false)
    expect(isProxiable('TXT', '"x"')).toBe(false)
  })
})
