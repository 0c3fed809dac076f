/**
 * An account move carries a secondary zone's records through the transfers committed while it
 * copies: an AXFR logs one full build and names none of the records it replaced, so the move copies
 * that zone's records again; an IXFR logs its records one by one and is caught up as any change.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../../../test/api/helpers.ts'
import { a, soa, withApexNs, type Step } from '../transfers/ixfr-test-transfers.ts'
import { TransferStage } from '../transfers/transfer-commit.ts'
import type { MoveJob } from './move-job.ts'
import { moveStep, planMove } from './move.ts'

const shard = (i: number): D1Database =>
  i === 0 ? env.DB : (env as unknown as Record<string, D1Database>)[`DB_${i}`]!

type Zone = { id: string; name: string }

/**
 * Receives `steps` on shard `db` and commits them as one transfer (`replace`: an AXFR, replacing
 * the records whole: never applied as a difference, so it is logged as one `replace` entry).
 */
async function transferOn(
  db: D1Database,
  zone: Zone,
  steps: Step[],
  serial: number,
  replace: boolean
) {
  const target = { zoneId: zone.id, zoneName: zone.name }
  const stage = new TransferStage(db, target, 400, undefined, undefined, 0)
  try {
    // A whole zone has its apex NS record (zone-shape.ts).
    const all = replace
      ? withApexNs(
          zone.name,
          steps.map(([, r]) => r)
        ).map((r) => ['add', r])
      : steps
    for (const [op, r] of all as Step[]) await stage.sink(op, r)
    const row = (await db
      .prepare('SELECT version, change_seq, serial FROM zones WHERE id = ?1')
      .bind(zone.id)
      .first<{ version: number; change_seq: number; serial: number }>())!
    const guard = { version: row.version, changeSeq: row.change_seq, serial: row.serial }
    await stage.commit({ guard, soa: soa(zone.name, serial), replace })
  } finally {
    await stage.discard()
  }
}

/** The zone's records on one shard, as (name, content) sorted. */
async function records(db: D1Database, zoneId: string): Promise<string[]> {
  const rows = await db
    .prepare(
      'SELECT name, type, content FROM dns_records WHERE zone_id = ?1 ORDER BY name, content'
    )
    .bind(zoneId)
    .all<{ name: string; type: string; content: string }>()
  return rows.results.map((r) => `${r.name} ${r.type} ${r.content}`)
}

/** A new account holding one secondary zone, the shard it is on and the one it is moved to. */
async function accountWithSecondary(label: string) {
  const account = (await api('POST', '/accounts', { name: label })).body.result.id as string
  const name = `${label}.example`
  const created = await api('POST', '/zones', { name, account: { id: account }, type: 'secondary' })
  expect(created.status).toBe(200)
  const zone = { id: created.body.result.id as string, name }
  const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
  return { account, zone, from, to: (from + 1) % 3, src: shard(from) }
}

const range = (lo: number, hi: number) => Array.from({ length: hi - lo }, (_, i) => lo + i)

describe('moving an account whose secondary zone is transferred meanwhile', () => {
  it(
    'copies the zone again after an AXFR committed during the copy, then catches up an IXFR',
    { timeout: 120_000 },
    async () => {
      const { account, zone, from, to, src } = await accountWithSecondary('xfr-recopy')
      const { name } = zone
      // Loaded before the move: more records than a page of the move (500).
      await transferOn(
        src,
        zone,
        range(0, 1200).map((i) => ['add', a(name, i)] as Step),
        10,
        true
      )

      let saved: MoveJob = await planMove(env, account, to)
      const step = async (budget: number) =>
        (saved = await moveStep(env, saved, async (j) => void (saved = j), budget))
      for (let i = 0; saved.phase === 'copy' && i < 200; i++) await step(1)
      expect(saved.phase).toBe('catchup')
      expect(await records(shard(to), zone.id)).toEqual(await records(src, zone.id))

      // The primary's zone changed: an AXFR replaces half of the records with others, then an
      // IXFR deletes one and adds one.
      await transferOn(
        src,
        zone,
        range(600, 1800).map((i) => ['add', a(name, i)] as Step),
        11,
        true
      )
      await transferOn(
        src,
        zone,
        [
          ['delete', a(name, 700)],
          ['add', a(name, 5000)],
        ],
        12,
        false
      )
      const expected = await records(src, zone.id)
      expect(expected).toHaveLength(1201) // and the apex NS record
      const replaced = await src
        .prepare("SELECT count(*) AS n FROM change_log WHERE zone_id = ?1 AND op = 'replace'")
        .bind(zone.id)
        .first<{ n: number }>()
      expect(replaced?.n).toBe(2)

      for (let i = 0; saved.phase !== 'done' && i < 500; i++) await step(20)
      expect(saved.phase).toBe('done')
      expect(saved.recopy).toBeUndefined()
      // The AXFR's entry made the move copy the zone again (once: the load's was before the move).
      expect(saved.recopies).toBe(1)
      expect(await records(shard(to), zone.id)).toEqual(expected)
      const serial = await shard(to)
        .prepare('SELECT serial FROM zones WHERE id = ?1')
        .bind(zone.id)
        .first<{ serial: number }>()
      expect(serial?.serial).toBe(12)
    }
  )

  it(
    'fences after three waits for recopies while the primary keeps replacing the zone',
    { timeout: 120_000 },
    async () => {
      const { account, zone, from, to, src } = await accountWithSecondary('xfr-churn')
      const { name } = zone
      const load = (lo: number, serial: number) =>
        transferOn(
          src,
          zone,
          range(lo, lo + 50).map((i) => ['add', a(name, i)] as Step),
          serial,
          true
        )
      await load(0, 10)
      let saved: MoveJob = await planMove(env, account, to)
      const step = async () =>
        (saved = await moveStep(env, saved, async (j) => void (saved = j), 6))
      // A replacing AXFR before every step until the move fences: it must fence anyway.
      let serial = 11
      for (let i = 0; ['copy', 'catchup'].includes(saved.phase) && i < 200; i++) {
        await load(serial * 10, serial++)
        await step()
      }
      expect(saved.phase).not.toBe('catchup')
      expect(saved.fenceWaits).toBe(3)
      const expected = await records(src, zone.id)
      for (let i = 0; saved.phase !== 'done' && i < 500; i++) await step()
      expect(saved.phase).toBe('done')
      expect(await records(shard(to), zone.id)).toEqual(expected)
    }
  )
})
