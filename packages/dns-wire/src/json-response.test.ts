import { describe, expect, it } from 'vitest'
import { toJsonResponse } from './json.ts'

describe('toJsonResponse', () => {
  it('uses the Google/Cloudflare field names with trailing dots', () => {
    const json = toJsonResponse(
      { name: 'Example.com', type: 16 },
      {
        rcode: 'NOERROR',
        answer: [{ name: 'example.com', type: 16, ttl: 300, rdata: '"v=spf1 -all"' }],
        authority: [],
        additional: [],
      }
    )
    expect(json).toEqual({
      Status: 0,
      TC: false,
      RD: true,
      RA: false,
      AD: false,
      CD: false,
      Question: [{ name: 'Example.com.', type: 16 }],
      Answer: [{ name: 'example.com.', type: 16, TTL: 300, data: '"v=spf1 -all"' }],
    })
    expect(JSON.stringify(json)).toContain('"data":"\\"v=spf1 -all\\""')
  })

  it('puts the SOA in Authority for negative answers and omits empty sections', () => {
    const json = toJsonResponse(
      { name: 'nope.example.com.', type: 1, cd: true, rd: false },
      {
        rcode: 'NXDOMAIN',
        answer: [],
        authority: [{ name: 'example.com', type: 6, ttl: 300, rdata: 'a. b. 1 2 3 4 5' }],
        additional: [],
      }
    )
    expect(json.Status).toBe(3)
    expect(json.CD).toBe(true)
    expect(json.RD).toBe(false)
    expect(json.Question).toEqual([{ name: 'nope.example.com.', type: 1 }])
    expect(json).not.toHaveProperty('Answer')
    expect(json).not.toHaveProperty('Additional')
    expect(json.Authority?.[0]).toEqual({
      name: 'example.com.',
      type: 6,
      TTL: 300,
      data: 'a. b. 1 2 3 4 5',
    })
  })

  it('writes the root as a single dot', () => {
    const json = toJsonResponse(
      { name: '', type: 2 },
      { rcode: 5, answer: [], authority: [], additional: [] }
    )
    expect(json.Question[0]?.name).toBe('.')
    expect(json.Status).toBe(5)
  })
})
