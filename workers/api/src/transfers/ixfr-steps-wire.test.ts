/**
 * @module An IXFR of many steps (one difference a serial, BIND's form) from a fake primary through
 * `transferFrom`: the wire, the transfer client, the staged steps and the commit; past the runs one
 * commit applies, the AXFR is asked instead and nothing staged is left behind.
 */
import { env } from 'cloudflare:workers'
import type { ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { createZone } from '../../../../test/api/helpers.ts'
import { heldRecords as held } from '../../../../test/api/incoming-rows.ts'
import { ixfrPrimaryOf } from './ixfr-test-transfers.ts'
import { fakePrimary, pack, primarySoa as wSoa } from './fake-primary.ts'
import { transferFrom } from './transfer-from.ts'

async function stagedLeft(zoneId: string): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM import_staging WHERE zone_id = ?1')
    .bind(zoneId)
    .first<{ n: number }>()
  return row!.n
}

const wA = (zone: string, label: string, n: number): ResponseRR => ({
  name: `${label}.${zone}`,
  type: 1,
  ttl: 300,
  rdata: `192.0.2.${n}`,
})
describe('an IXFR of many steps from a primary, through transferFrom', () => {
  async function run(label: string, steps: number) {
    const zone = await createZone(label, 'secondary')
    const z = zone.name
    const { primary, cfg } = ixfrPrimaryOf(zone)
    const first = fakePrimary((kind, id) =>
      pack(
        z,
        id,
        kind,
        kind === 'SOA' ? [wSoa(z, 10)] : [wSoa(z, 10), wA(z, 's0', 1), wA(z, 'b', 2), wSoa(z, 10)]
      )
    )
    const done = await transferFrom(env as Env, cfg, primary, 'check', first.connect)
    await done.finishing
    const last = 10 + steps
    // Step i: 10+i → 11+i deletes s<i> and adds s<i+1>; BIND's form, one step per serial.
    const diff: ResponseRR[] = [wSoa(z, last)]
    for (let i = 0; i < steps; i++)
      diff.push(wSoa(z, 10 + i), wA(z, `s${i}`, 1), wSoa(z, 11 + i), wA(z, `s${i + 1}`, 1))
    diff.push(wSoa(z, last))
    const p = fakePrimary((kind, id) => {
      if (kind === 'SOA') return pack(z, id, kind, [wSoa(z, last)])
      if (kind === 'IXFR') return pack(z, id, kind, diff)
      return pack(z, id, kind, [wSoa(z, last), wA(z, 'b', 2), wA(z, `s${steps}`, 1), wSoa(z, last)])
    })
    const result = await transferFrom(
      env as Env,
      { ...cfg, soaSerial: 10 },
      primary,
      'check',
      p.connect
    )
    await result.finishing
    const names = await held(zone.id)
    return { result, asked: p.asked, names, left: await stagedLeft(zone.id), z }
  }

  it('applies 100 steps (one a serial, as BIND sends them) as an IXFR', async () => {
    const r = await run('ixfr-wire-100', 100)
    expect(r.result).toMatchObject({ status: 'transferred', kind: 'ixfr', serial: 110 })
    expect(r.asked).toEqual(['SOA', 'IXFR'])
    expect(r.names).toEqual([`b.${r.z} 300 A - 192.0.2.2`, `s100.${r.z} 300 A - 192.0.2.1`])
    expect(r.left).toBe(0)
  })

  it('asks the AXFR for 101 steps, and leaves no staged rows', async () => {
    const r = await run('ixfr-wire-101', 101)
    expect(r.result).toMatchObject({ status: 'transferred', kind: 'axfr', serial: 111 })
    expect(r.asked).toEqual(['SOA', 'IXFR', 'AXFR'])
    expect(r.names).toEqual([`b.${r.z} 300 A - 192.0.2.2`, `s101.${r.z} 300 A - 192.0.2.1`])
    expect(r.left).toBe(0)
  })
})
