import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createZone } from '../../../../test/api/helpers.ts'
import {
  CommitConflict,
  commitZoneChange,
  conflictOf,
  fullBuildRequestStatements,
  guardStatement,
  nextSerial,
  zoneLogStatement,
  type ZoneGuard,
} from './zone-change.ts'

const db = env.DB

async function guardOf(zoneId: string): Promise<ZoneGuard> {
  const row = await db
    .prepare('SELECT version, change_seq, serial FROM zones WHERE id = ?1')
    .bind(zoneId)
    .first<{ version: number; change_seq: number; serial: number }>()
  return { version: row!.version, changeSeq: row!.change_seq, serial: row!.serial }
}

async function logSeqs(zoneId: string): Promise<{ seq: number; op: string }[]> {
  const { results } = await db
    .prepare('SELECT seq, op FROM change_log WHERE zone_id = ?1 ORDER BY seq')
    .bind(zoneId)
    .all<{ seq: number; op: string }>()
  return results
}

/** The statements of one zone-level change planned against `guard`. */
function zoneChange(
  zoneId: string,
  guard: ZoneGuard,
  now = new Date().toISOString()
): D1PreparedStatement[] {
  return [
    guardStatement(db, { zoneId, guard, now }, 1),
    zoneLogStatement(db, zoneId, guard.changeSeq + 1, 'zone', now),
  ]
}

async function refusal(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.unreachable('the commit was accepted'),
    (e: unknown) => e
  )
}

describe('committing a zone change', () => {
  it('bumps version, change sequence and serial and writes the log row in one batch', async () => {
    const z = await createZone('commit-ok')
    const before = await guardOf(z.id)
    await commitZoneChange(db, zoneChange(z.id, before))
    const after = await guardOf(z.id)
    expect(after).toMatchObject({ version: before.version + 1, changeSeq: before.changeSeq + 1 })
    expect(after.serial).toBeGreaterThan(before.serial)
    expect((await logSeqs(z.id)).at(-1)).toEqual({ seq: before.changeSeq + 1, op: 'zone' })
  })

  it('refuses a change planned against a zone another writer changed since, as zone-changed, and writes nothing', async () => {
    const z = await createZone('commit-stale')
    const stale = await guardOf(z.id)
    await commitZoneChange(db, zoneChange(z.id, stale))
    const committed = await guardOf(z.id)
    const log = await logSeqs(z.id)
    const error = await refusal(commitZoneChange(db, zoneChange(z.id, stale)))
    expect(error).toBeInstanceOf(CommitConflict)
    expect((error as CommitConflict).reason).toBe('zone-changed')
    expect(await guardOf(z.id)).toEqual(committed)
    expect(await logSeqs(z.id)).toEqual(log)
  })

  it('refuses a second log row at a committed sequence as zone-changed', async () => {
    const z = await createZone('commit-seq')
    const error = await refusal(
      commitZoneChange(db, [zoneLogStatement(db, z.id, 1, 'zone', new Date().toISOString())])
    )
    expect((error as CommitConflict).reason).toBe('zone-changed')
  })

  it('refuses a second live zone of the same name as zone-name-taken', async () => {
    const z = await createZone('commit-name')
    const columns =
      'account_id, name, name_rev, name_servers, soa_mname, soa_rname, serial, created_on, modified_on'
    const copy = db
      .prepare(`INSERT INTO zones (id, ${columns}) SELECT ?2, ${columns} FROM zones WHERE id = ?1`)
      .bind(z.id, 'e'.repeat(32))
    const error = await refusal(commitZoneChange(db, [copy]))
    expect((error as CommitConflict).reason).toBe('zone-name-taken')
  })

  it('passes every other failure through unchanged', async () => {
    const broken = db.prepare('INSERT INTO no_such_table VALUES (1)')
    const error = await refusal(commitZoneChange(db, [broken]))
    expect(error).not.toBeInstanceOf(CommitConflict)
    expect(conflictOf(error)).toBeNull()
  })

  it('commits a full-build request at the next sequence, and nothing for a zone that does not exist', async () => {
    const z = await createZone('commit-full')
    const { changeSeq } = await guardOf(z.id)
    const [bumped] = await commitZoneChange(
      db,
      fullBuildRequestStatements(db, z.id, new Date().toISOString())
    )
    expect(bumped!.results).toEqual([{ change_seq: changeSeq + 1 }])
    expect((await logSeqs(z.id)).at(-1)).toEqual({ seq: changeSeq + 1, op: 'full' })
    const [none] = await commitZoneChange(
      db,
      fullBuildRequestStatements(db, 'f'.repeat(32), new Date().toISOString())
    )
    expect(none!.results).toEqual([])
  })
})

describe('the next serial', () => {
  const at = (seconds: number) => seconds * 1000
  it('is the clock when the clock is after the serial, else the serial plus one', () => {
    expect(nextSerial(1_700_000_000, at(1_800_000_000))).toBe(1_800_000_000)
    expect(nextSerial(1_800_000_000, at(1_800_000_000))).toBe(1_800_000_001)
    // A primary's date-style serial (2026112801) is ahead of the clock: one more.
    expect(nextSerial(2_026_112_801, at(1_800_000_000))).toBe(2_026_112_802)
  })

  it('wraps at 2^32 (RFC 1982) instead of leaving the 32 bits of a SOA serial', () => {
    expect(nextSerial(2 ** 32 - 1, at(0))).toBe(0)
    // Past the wrap the clock (1,800,000,000) is after 4,294,967,000 in serial arithmetic.
    expect(nextSerial(4_294_967_000, at(1_800_000_000))).toBe(1_800_000_000)
  })
})
