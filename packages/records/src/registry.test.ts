import { TYPE_CODES as FACT_CODES } from '@edgedns/dns-facts'
import { describe, expect, it } from 'vitest'
import { RECORD_TYPES, TYPE_CODES, isRecordType } from './record-type.ts'
import { REGISTRY, getTypeSpec } from './registry.ts'

describe('record-type registry', () => {
  it('has a spec for exactly the API types of the type table', () => {
    expect(Object.keys(REGISTRY).sort()).toEqual([...RECORD_TYPES].sort())
  })

  it("uses the type table's codes", () => {
    for (const t of RECORD_TYPES) expect(REGISTRY[t].code).toBe(FACT_CODES[t])
    expect(TYPE_CODES.SOA).toBe(FACT_CODES.SOA)
  })

  it('gives every type its own error code', () => {
    const codes = RECORD_TYPES.map((t) => REGISTRY[t].errorCode)
    expect(new Set(codes).size).toBe(RECORD_TYPES.length)
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
