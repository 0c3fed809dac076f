/**
 * @module A failed IXFR is asked again, once, as an AXFR from the same primary (as BIND does): a
 * primary without IXFR, a difference that does not apply to the copy we hold. A failure an AXFR
 * would share (the connection, the signature) fails the check instead.
 */
import { env } from 'cloudflare:workers'
import type { ResponseRR } from '@edgedns/dns-wire'
import { parseTsigKey, TsigError, type TsigKey } from '@edgedns/zone-transfer'
import { describe, expect, it } from 'vitest'
import { createZone } from '../../../../test/api/helpers.ts'
import { ixfrPrimaryOf } from './ixfr-test-transfers.ts'
import { fakePrimary, pack, primarySoa as soa, withRcode } from './fake-primary.ts'
import { transferFrom } from './transfer-from.ts'

const KEY = parseTsigKey('hmac-sha256:xfr-key:c2VjcmV0LWZvci10aGUtZmFsbGJhY2stdGVzdC0zMi1vY3RldHM=')

const a = (zone: string, label: string): ResponseRR => ({
  name: `${label}.${zone}`,
  type: 1,
  ttl: 300,
  rdata: `192.0.2.${label.length + label.charCodeAt(0) - 96}`,
})

/**
 * A primary at serial 11 holding `b` and `c`, whose IXFR answer (from 10) is `ixfr`; it answers
 * AXFR with the whole zone.
 */
function primaryAt11(zone: string, ixfr: (id: number) => Uint8Array[], key?: TsigKey) {
  return fakePrimary((kind, id) => {
    if (kind === 'SOA') return pack(zone, id, kind, [soa(zone, 11)])
    if (kind === 'IXFR') return ixfr(id)
    return pack(zone, id, kind, [soa(zone, 11), a(zone, 'b'), a(zone, 'c'), soa(zone, 11)])
  }, key)
}

/** A zone holding `a` and `b` at serial 10, by an AXFR from a primary with IXFR enabled. */
async function heldAt10(label: string, key?: TsigKey) {
  const zone = await createZone(label, 'secondary')
  const { primary, cfg } = ixfrPrimaryOf(zone, key ?? null)
  const first = fakePrimary(
    (kind, id) =>
      pack(
        zone.name,
        id,
        kind,
        kind === 'SOA'
          ? [soa(zone.name, 10)]
          : [soa(zone.name, 10), a(zone.name, 'a'), a(zone.name, 'b'), soa(zone.name, 10)]
      ),
    key
  )
  const done = await transferFrom(env as Env, cfg, primary, 'check', first.connect)
  await done.finishing
  expect(done).toMatchObject({ status: 'transferred', kind: 'axfr', serial: 10 })
  return { zone, primary, cfg: { ...cfg, soaSerial: 10 } }
}

async function held(zoneId: string): Promise<{ names: string[]; serial: number }> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM dns_records WHERE zone_id = ?1 AND type != 'NS' ORDER BY name"
  )
    .bind(zoneId)
    .all<{ name: string }>()
  const z = await env.DB.prepare('SELECT serial FROM zones WHERE id = ?1')
    .bind(zoneId)
    .first<{ serial: number }>()
  return { names: results.map((r) => r.name.split('.')[0]!), serial: z!.serial }
}

describe('an IXFR that fails', () => {
  it('is asked again as an AXFR when the primary answers it NOTIMP', async () => {
    const { zone, primary, cfg } = await heldAt10('ixfr-notimp')
    const p = primaryAt11(zone.name, (id) =>
      withRcode(pack(zone.name, id, 'IXFR', [soa(zone.name, 11)]), 4)
    )
    const result = await transferFrom(env as Env, cfg, primary, 'check', p.connect)
    await result.finishing
    expect(result).toMatchObject({ status: 'transferred', kind: 'axfr', serial: 11 })
    expect(p.asked).toEqual(['SOA', 'IXFR', 'AXFR'])
    expect(await held(zone.id)).toEqual({ names: ['b', 'c'], serial: 11 })
  })

  it('is asked again as an AXFR when its difference does not apply to the copy we hold', async () => {
    const { zone, primary, cfg } = await heldAt10('ixfr-diverged')
    const z = zone.name
    // Deletes `x`, which we do not hold: the primary diffs from another version than ours.
    const diff = [soa(z, 11), soa(z, 10), a(z, 'x'), soa(z, 11), a(z, 'c'), soa(z, 11)]
    const p = primaryAt11(z, (id) => pack(z, id, 'IXFR', diff))
    const result = await transferFrom(env as Env, cfg, primary, 'check', p.connect)
    await result.finishing
    expect(result).toMatchObject({ status: 'transferred', kind: 'axfr', serial: 11 })
    expect(p.asked).toEqual(['SOA', 'IXFR', 'AXFR'])
    expect(await held(zone.id)).toEqual({ names: ['b', 'c'], serial: 11 })
  })

  it('applies a difference that matches our copy as an IXFR', async () => {
    const { zone, primary, cfg } = await heldAt10('ixfr-applies')
    const z = zone.name
    const diff = [soa(z, 11), soa(z, 10), a(z, 'a'), soa(z, 11), a(z, 'c'), soa(z, 11)]
    const p = primaryAt11(z, (id) => pack(z, id, 'IXFR', diff))
    const result = await transferFrom(env as Env, cfg, primary, 'check', p.connect)
    await result.finishing
    expect(result).toMatchObject({ status: 'transferred', kind: 'ixfr', serial: 11 })
    expect(p.asked).toEqual(['SOA', 'IXFR'])
    expect(await held(zone.id)).toEqual({ names: ['b', 'c'], serial: 11 })
  })

  it('fails the check, without an AXFR, when the connection for it fails', async () => {
    const { zone, primary, cfg } = await heldAt10('ixfr-unreachable')
    const p = primaryAt11(zone.name, () => [])
    p.failConnection(2)
    await expect(transferFrom(env as Env, cfg, primary, 'check', p.connect)).rejects.toThrow(
      /refused/
    )
    expect(p.asked).toEqual(['SOA'])
    expect(await held(zone.id)).toEqual({ names: ['a', 'b'], serial: 10 })
  })

  it('fails the check, without an AXFR, when its answer is not signed with the primary key', async () => {
    const { zone, primary, cfg } = await heldAt10('ixfr-unsigned', KEY)
    const p = primaryAt11(zone.name, (id) => pack(zone.name, id, 'IXFR', [soa(zone.name, 11)]), KEY)
    await expect(transferFrom(env as Env, cfg, primary, 'check', p.connect)).rejects.toMatchObject({
      cause: expect.any(TsigError),
    })
    expect(p.asked).toEqual(['SOA', 'IXFR'])
    expect(await held(zone.id)).toEqual({ names: ['a', 'b'], serial: 10 })
  })
})
