import { describe, expect, it } from 'vitest'
import { RECORD_TYPES, TYPE_CODES, isRecordType } from './record-type.ts'
import { REGISTRY, getTypeSpec } from './registry.ts'

describe('record-type registry', () => {
  it('has exactly the 21 Cloudflare types', () => {
    expect(RECORD_TYPES).toHaveLength(21)
    expect(Object.keys(REGISTRY).sort()).toEqual([...RECORD_TYPES].sort())
  })

  it('uses IANA type codes', () => {
    expect(TYPE_CODES).toMatchObject({
      A: 1,
      NS: 2,
      CNAME: 5,
      SOA: 6,
      PTR: 12,
      MX: 15,
      TXT: 16,
      AAAA: 28,
      LOC: 29,
      SRV: 33,
      NAPTR: 35,
      CERT: 37,
      DS: 43,
      SSHFP: 44,
      DNSKEY: 48,
      TLSA: 52,
      SMIMEA: 53,
      OPENPGPKEY: 61,
      SVCB: 64,
      HTTPS: 65,
      URI: 256,
      CAA: 257,
    })
    for (const t of RECORD_TYPES) expect(REGISTRY[t].code).toBe(TYPE_CODES[t])
  })

  it('gives every type its own error code', () => {
    const codes = RECORD_TYPES.map((t) => REGISTRY[t].errorCode)
    expect(new Set(codes).size).toBe(21)
  })

  it('marks data types with their data keys', () => {
    const dataTypes = RECORD_TYPES.filter((t) => REGISTRY[t].kind === 'data')
    expect(dataTypes).toEqual([
      'CAA',
      'CERT',
      'DNSKEY',
      'DS',
      'HTTPS',
      'LOC',
      'NAPTR',
      'SMIMEA',
      'SRV',
      'SSHFP',
      'SVCB',
      'TLSA',
      'URI',
    ])
    expect(REGISTRY.SRV.dataKeys).toEqual(['priority', 'weight', 'port', 'target'])
    expect(REGISTRY.A.dataKeys).toEqual([])
  })

  it('recognises type names exactly', () => {
    expect(isRecordType('MX')).toBe(true)
    expect(isRecordType('mx')).toBe(false)
    expect(isRecordType('SOA')).toBe(false)
    expect(() => getTypeSpec('SPF')).toThrow(expect.objectContaining({ code: 9020 }))
  })
})
