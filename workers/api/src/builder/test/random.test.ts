/**
 * @module Randomised convergence: 1,000 small batches (creates, renames, content changes, deletes,
 * apex changes, settings changes) from a seeded PRNG through the API; KV must equal what D1 says.
 */
import { describe, expect, it } from 'vitest'
import { api, converge, createZone, prng, settle } from './helpers.ts'

const NAMES = [
  '@',
  'www',
  'a',
  'b.a',
  'c.b.a',
  'd.c.b.a',
  'y',
  'x.y',
  '*.y',
  'm.n.o',
  'mail',
  '*',
  'deep.e.f.g',
  'e.f.g',
  '_sip._tcp',
]
const BATCHES = Number(process.env.RANDOM_BATCHES ?? 1000)

interface Rec {
  id: string
  name: string
  type: string
}

function randomRecord(rand: () => number, pick: <T>(xs: T[]) => T): Record<string, unknown> {
  const name = pick(NAMES)
  const roll = rand()
  if (roll < 0.4)
    return {
      type: 'A',
      name,
      content: `192.0.2.${1 + Math.floor(rand() * 40)}`,
      ttl: pick([1, 60, 300]),
      proxied: rand() < 0.2,
    }
  if (roll < 0.6)
    return { type: 'AAAA', name, content: `2001:db8::${Math.floor(rand() * 40).toString(16)}` }
  if (roll < 0.85) return { type: 'TXT', name, content: `v=${Math.floor(rand() * 30)}` }
  return {
    type: 'MX',
    name,
    content: `mx${Math.floor(rand() * 3)}.example.net`,
    priority: Math.floor(rand() * 20),
  }
}

describe('randomised convergence', () => {
  it(`KV equals D1 after ${BATCHES} random batches`, async () => {
    const z = await createZone('rand')
    const rand = prng(20240601)
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!
    const live = new Map<string, Rec>()
    let applied = 0
    for (let i = 0; i < BATCHES; i++) {
      const body: Record<string, unknown[]> = {}
      const used = new Set<string>()
      const existing = () => [...live.values()].filter((r) => !used.has(r.id))
      const ops = 1 + Math.floor(rand() * 3)
      for (let k = 0; k < ops; k++) {
        const roll = rand()
        const candidates = existing()
        if (roll < 0.45 || candidates.length < 3) {
          ;(body.posts ??= []).push(randomRecord(rand, pick))
        } else if (roll < 0.65) {
          const r = pick(candidates)
          used.add(r.id)
          ;(body.deletes ??= []).push({ id: r.id })
        } else if (roll < 0.97) {
          const r = pick(candidates)
          used.add(r.id)
          ;(body.patches ??= []).push(
            rand() < 0.6 ? { id: r.id, name: pick(NAMES) } : { id: r.id, ttl: pick([1, 120, 3600]) }
          )
        } else {
          await api('PATCH', `/zones/${z.id}/dns_settings`, {
            soa: { min_ttl: 60 + Math.floor(rand() * 600) },
          })
        }
      }
      if (Object.keys(body).length === 0) continue
      const res = await api('POST', `/zones/${z.id}/dns_records/batch`, body)
      if (res.status !== 200) continue // duplicates and type conflicts are rejected as a whole
      applied++
      for (const r of res.body.result.deletes ?? []) live.delete(r.id)
      for (const list of ['patches', 'puts', 'posts']) {
        for (const r of res.body.result[list] ?? [])
          live.set(r.id, { id: r.id, name: r.name, type: r.type })
      }
      if ((i + 1) % 250 === 0) {
        await settle(z.id)
        expect((await converge(z.id)).differences, `after batch ${i + 1}`).toEqual([])
      }
    }
    expect(applied).toBeGreaterThan(BATCHES * 0.7)
    const status = await settle(z.id)
    const report = await converge(z.id)
    expect(report.differences).toEqual([])
    expect(report.expectedKeys).toBeGreaterThan(5)
    expect(status.lastError).toBeNull()
  }, 120_000)
})
