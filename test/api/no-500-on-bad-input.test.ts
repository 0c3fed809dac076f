/**
 * Review: inputs that make the API answer HTTP 500 (each test fails today).
 */
import { describe, expect, it } from 'vitest'
import { api, createZone } from './helpers.ts'

describe('review: list query → 500', () => {
  it('answers 400, not 500, for more filters than D1 can bind', async () => {
    const z = await createZone()
    const qs = Array.from({ length: 101 }, (_, i) => `content.contains=x${i}`).join('&')
    const res = await api('GET', `/zones/${z.id}/dns_records?${qs}`)
    expect(res.status).toBe(400)
  })

  it('answers an empty page, not 500, for the largest page number it accepts', async () => {
    const z = await createZone()
    const res = await api('GET', `/zones/${z.id}/dns_records?page=9007199254740991&per_page=50000`)
    expect(res.status).toBe(200)
    expect(res.body.result).toEqual([])
  })
})

describe('review: zone delete races → 500', () => {
  it('answers 200/404, not 500, to two concurrent deletes of one zone', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      const z = await createZone()
      const [a, b] = await Promise.all([
        api('DELETE', `/zones/${z.id}`),
        api('DELETE', `/zones/${z.id}`),
      ])
      statuses.push(a.status, b.status)
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([])
  })
})

describe('review: oversized records → 500', () => {
  it('rejects tags too large for a D1 row with 400 instead of failing the write with 500', async () => {
    const z = await createZone()
    const tags = Array.from({ length: 50 }, (_, i) => `t${i}:` + 'v'.repeat(300_000))
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'big',
      content: '192.0.2.9',
      tags,
    })
    expect(res.status).toBe(400)
  }, 30_000)
})
