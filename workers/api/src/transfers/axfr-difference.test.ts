/**
 * An AXFR into a zone that holds a copy is applied as its difference from that copy: records the
 * same to the TTL and data stay (with their ids), the others are deleted and added and logged one
 * by one, and the builder rebuilds only their names. The zone ends as a whole replacement would
 * leave it; past the size or difference limits it is replaced whole.
 */
import { env } from 'cloudflare:workers'
import type { MessageRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { createZone } from '../../../../test/api/helpers.ts'
import { heldRecords } from '../../../../test/api/incoming-rows.ts'
import { builder, kvNode, settle } from '../builder/test/helpers.ts'
import {
  a,
  apexNs,
  guardOf,
  rr,
  soa,
  transfer,
  withApexNs,
  type Step,
  type Zone,
} from './ixfr-test-transfers.ts'
import { HELD_PAGE } from './staged-records.ts'
import { TransferStage } from './transfer-commit.ts'

async function ops(zoneId: string, after: number): Promise<string[]> {
  const { results } = await env.DB.prepare(
    'SELECT op, old_name, new_name FROM change_log WHERE zone_id = ?1 AND seq > ?2 ORDER BY seq'
  )
    .bind(zoneId, after)
    .all<{ op: string; old_name: string | null; new_name: string | null }>()
  return results.map((r) => `${r.op} ${(r.old_name ?? r.new_name ?? '').split('.')[0]}`.trim())
}

async function ids(zoneId: string): Promise<Map<string, string>> {
  const { results } = await env.DB.prepare(
    'SELECT id, name, type, content, ttl FROM dns_records WHERE zone_id = ?1'
  )
    .bind(zoneId)
    .all<{ id: string; name: string; type: string; content: string; ttl: number }>()
  return new Map(results.map((r) => [`${r.name} ${r.type} ${r.content} ${r.ttl}`, r.id]))
}

const adds = (records: MessageRR[]): Step[] => records.map((r): Step => ['add', r])
const range = (lo: number, hi: number) => Array.from({ length: hi - lo }, (_, i) => lo + i)
const withTtl = (r: MessageRR, ttl: number): MessageRR => ({ ...r, ttl })

/** A secondary zone loaded by an AXFR of r-0 … r-(n-1) at serial 10. */
async function loaded(label: string, n: number): Promise<Zone> {
  const zone = await createZone(label, 'secondary')
  await transfer(zone, adds(range(0, n).map((i) => a(zone.name, i))), 10, true)
  return zone
}

/** The records an AXFR of `records` leaves in a new zone: what any AXFR of them must leave. */
async function asLoaded(label: string, records: (zone: string) => MessageRR[]) {
  const fresh = await createZone(label, 'secondary')
  await transfer(fresh, adds(records(fresh.name)), 10, true)
  return (await heldRecords(fresh.id)).map((l) => l.split(fresh.name).join('Z'))
}
const held = async (zone: Zone) =>
  (await heldRecords(zone.id)).map((l) => l.split(zone.name).join('Z'))

/** The test database with some of its methods replaced (the others bound to it). */
function dbWith(replaced: Partial<Pick<D1Database, 'prepare' | 'batch'>>): D1Database {
  return new Proxy(env.DB, {
    get(target, key) {
      if (key in replaced) return replaced[key as keyof typeof replaced]
      const value = Reflect.get(target, key) as unknown
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
}

/** An AXFR of `records` at `serial`, staged and committed through `db`; its stage. */
async function axfrThrough(db: D1Database, zone: Zone, records: MessageRR[], serial: number) {
  const stage = new TransferStage(db, { zoneId: zone.id, zoneName: zone.name })
  try {
    for (const r of withApexNs(zone.name, records)) await stage.sink('add', r)
    const guard = await guardOf(zone.id)
    await stage.commit({ guard, soa: soa(zone.name, serial), replace: true })
  } finally {
    await stage.discard()
  }
  return stage
}

describe('an AXFR into a zone holding a copy', () => {
  it('keeps what is the same, deletes and adds the rest, logged record by record', async () => {
    const zone = await loaded('axfr-diff', 300)
    const z = zone.name
    const before = await ids(zone.id)
    const seq = (await guardOf(zone.id)).changeSeq
    // r-5 gone, r-7's TTL changed, r-1000 new.
    const next = (name: string) => [
      ...range(0, 300)
        .filter((i) => i !== 5)
        .map((i) => (i === 7 ? withTtl(a(name, i), 600) : a(name, i))),
      a(name, 1000),
    ]
    const committed = await transfer(zone, adds(next(z)), 11, true)

    expect(await ops(zone.id, seq)).toEqual([
      'delete r-5',
      'delete r-7',
      'create r-7',
      'create r-1000',
      'soa',
    ])
    expect(committed).toBe(seq + 5)
    expect(await held(zone)).toEqual(await asLoaded('axfr-diff-ref', next))
    // The records that stayed kept their ids.
    const after = await ids(zone.id)
    const kept = `r-0.${z} A 10.0.0.0 300`
    expect(after.get(kept)).toBe(before.get(kept))
    expect(after.get(`r-7.${z} A 10.0.0.7 600`)).not.toBe(before.get(`r-7.${z} A 10.0.0.7 300`))
  })

  it('replaces the zone whole when the AXFR holds a record twice', async () => {
    const zone = await loaded('axfr-twice', 20)
    const seq = (await guardOf(zone.id)).changeSeq
    const next = (name: string) => [
      ...range(0, 20).map((i) => a(name, i)),
      withTtl(a(name, 3), 900),
    ]
    await transfer(zone, adds(next(zone.name)), 11, true)
    expect(await ops(zone.id, seq)).toEqual(['replace'])
    expect(await held(zone)).toEqual(await asLoaded('axfr-twice-ref', next))
  })

  it('applies the difference when the AXFR holds a record twice, the same both times', async () => {
    const zone = await loaded('axfr-dup', 20)
    const seq = (await guardOf(zone.id)).changeSeq
    // r-3 (held) and r-30 (new) each sent twice, as a PowerDNS primary holding a row twice would.
    const next = (name: string) => [
      ...range(0, 20).map((i) => a(name, i)),
      a(name, 3),
      a(name, 30),
      a(name, 30),
    ]
    const stage = await axfrThrough(env.DB, zone, next(zone.name), 11)
    expect(stage.applied).toBe('difference')
    expect(await ops(zone.id, seq)).toEqual(['create r-30', 'soa'])
    expect(await held(zone)).toEqual(await asLoaded('axfr-dup-ref', next))
  })

  it('logs the SOA alone when nothing else changed', async () => {
    const zone = await loaded('axfr-same', 50)
    const seq = (await guardOf(zone.id)).changeSeq
    const before = await ids(zone.id)
    await transfer(zone, adds(range(0, 50).map((i) => a(zone.name, i))), 11, true)
    expect(await ops(zone.id, seq)).toEqual(['soa'])
    expect(await ids(zone.id)).toEqual(before)
  })

  it('replaces a record of the zone that a transfer did not write (a comment, tags)', async () => {
    const zone = await loaded('axfr-plain', 5)
    await env.DB.prepare("UPDATE dns_records SET comment = 'mine' WHERE zone_id = ?1 AND name = ?2")
      .bind(zone.id, `r-1.${zone.name}`)
      .run()
    const seq = (await guardOf(zone.id)).changeSeq
    await transfer(zone, adds(range(0, 5).map((i) => a(zone.name, i))), 11, true)
    expect(await ops(zone.id, seq)).toEqual(['delete r-1', 'create r-1', 'soa'])
    const { results } = await env.DB.prepare(
      'SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1 AND comment IS NOT NULL'
    )
      .bind(zone.id)
      .all<{ n: number }>()
    expect(results[0]!.n).toBe(0)
  })

  it('replaces the zone whole past the difference or fingerprint limit', async () => {
    const zone = await loaded('axfr-limits', 30)
    const commit = async (perRecordLog: number, diffLimit: number, records: MessageRR[]) => {
      const seq = (await guardOf(zone.id)).changeSeq
      const stage = new TransferStage(
        env.DB,
        { zoneId: zone.id, zoneName: zone.name },
        50,
        1000,
        perRecordLog,
        diffLimit
      )
      try {
        for (const r of withApexNs(zone.name, records)) await stage.sink('add', r)
        const guard = await guardOf(zone.id)
        await stage.commit({ guard, soa: soa(zone.name, guard.serial + 1), replace: true })
      } finally {
        await stage.discard()
      }
      return ops(zone.id, seq)
    }
    const some = (lo: number) => range(lo, lo + 30).map((i) => a(zone.name, i))
    // 10 deleted and 10 added: more than 15 to log one by one.
    expect(await commit(15, 100, some(10))).toEqual(['replace'])
    // An AXFR (30) of more records than a limit of 20 fingerprinted.
    expect(await commit(100, 20, some(12))).toEqual(['replace'])
    // The zone (30) holds more records than the AXFR (10) by more than 15.
    expect(await commit(15, 100, some(12).slice(0, 10))).toEqual(['replace'])
    expect(await commit(100, 100, some(12))).toEqual([
      ...range(22, 42).map((i) => `create r-${i}`),
      'soa',
    ])
    expect(await commit(100, 100, some(13))).toEqual(['delete r-12', 'create r-42', 'soa'])
    const left = await env.DB.prepare(
      "SELECT count(*) AS n FROM import_staging WHERE import_id LIKE 'xfr-%' AND zone_id = ?1"
    )
      .bind(zone.id)
      .first<{ n: number }>()
    expect(left!.n).toBe(0)
  })

  it('is applied as a difference across many staged rows and held pages', async () => {
    // 2,500 records: held pages of 1,000 and more, staged rows of 100, additions read back from
    // rows spread over the whole AXFR.
    const zone = await loaded('axfr-diff-pages', 2500)
    const seq = (await guardOf(zone.id)).changeSeq
    const gone = new Set([0, 999, 1000, 2499])
    const next = (name: string) => [
      ...range(0, 2500)
        .filter((i) => !gone.has(i))
        .map((i) => (i % 500 === 250 ? withTtl(a(name, i), 60) : a(name, i))),
      ...[5000, 5001].map((i) => a(name, i)),
    ]
    await transfer(zone, adds(next(zone.name)), 11, true)
    const logged = await ops(zone.id, seq)
    expect(logged.filter((o) => o.startsWith('delete'))).toHaveLength(4 + 5)
    expect(logged.filter((o) => o.startsWith('create'))).toEqual([
      ...[250, 750, 1250, 1750, 2250].map((i) => `create r-${i}`),
      'create r-5000',
      'create r-5001',
    ])
    expect(await held(zone)).toEqual(await asLoaded('axfr-diff-pages-ref', next))
  })

  it('replaces the zone whole when its difference does not apply exactly', async () => {
    const zone = await loaded('axfr-inexact', 30)
    const seq = (await guardOf(zone.id)).changeSeq
    // r-5 is deleted behind the difference's back after the copy was read (no version moved), so
    // the difference's deletion of r-5 removes nothing and its EXACT guard fails the batch.
    let behind = false
    const db = dbWith({
      batch: async <T>(statements: D1PreparedStatement[]) => {
        if (!behind) {
          behind = true
          await env.DB.prepare('DELETE FROM dns_records WHERE zone_id = ?1 AND name = ?2')
            .bind(zone.id, `r-5.${zone.name}`)
            .run()
        }
        return env.DB.batch<T>(statements)
      },
    })
    const next = (name: string) => [
      ...range(0, 30)
        .filter((i) => i !== 5)
        .map((i) => a(name, i)),
      a(name, 100),
    ]
    const stage = await axfrThrough(db, zone, next(zone.name), 11)
    expect(behind).toBe(true)
    expect(stage.applied).toBe('whole')
    expect(await ops(zone.id, seq)).toEqual(['replace'])
    expect(await held(zone)).toEqual(await asLoaded('axfr-inexact-ref', next))
  })

  it('stages its difference once, however many attempts the commit takes', async () => {
    const zone = await loaded('axfr-diff-retry', 40)
    const seq = (await guardOf(zone.id)).changeSeq
    let heldPages = 0
    const db = dbWith({
      prepare: (sql: string) => {
        if (sql === HELD_PAGE) heldPages++
        return env.DB.prepare(sql)
      },
    })
    const stage = new TransferStage(db, { zoneId: zone.id, zoneName: zone.name })
    try {
      await stage.sink('add', apexNs(zone.name))
      for (const i of [...range(1, 40), 77]) await stage.sink('add', a(zone.name, i))
      const guard = await guardOf(zone.id)
      // A settings change moved the zone's version: the first attempt conflicts.
      const stale = { ...guard, version: guard.version - 1 }
      await expect(
        stage.commit({ guard: stale, soa: soa(zone.name, 11), replace: true })
      ).rejects.toThrow()
      await stage.commit({ guard, soa: soa(zone.name, 11), replace: true })
    } finally {
      await stage.discard()
    }
    expect(heldPages).toBe(1)
    expect(stage.applied).toBe('difference')
    expect(await ops(zone.id, seq)).toEqual(['delete r-0', 'create r-77', 'soa'])
  })

  it('reads the held copy in pages cut to their characters: long records, short pages', async () => {
    // 300 TXT records of 4,000 characters: about 1,200,000, two pages of about 1,000,000.
    const chunk = 'x'.repeat(250)
    const txt = (zone: string, i: number) =>
      rr(zone, `t-${i}`, 'TXT', 16, Array.from({ length: 16 }, () => `"${chunk}"`).join(' '))
    const zone = await createZone('axfr-diff-long', 'secondary')
    const all = (name: string) => range(0, 300).map((i) => txt(name, i))
    await transfer(zone, adds(all(zone.name)), 10, true)
    const { results: lengths } = await env.DB.prepare(
      `SELECT 2 * length(name) + length(content) + ifnull(length(data), 0) AS own
       FROM dns_records WHERE zone_id = ?1 ORDER BY name_rev, type, content`
    )
      .bind(zone.id)
      .all<{ own: number }>()
    expect(lengths).toHaveLength(301) // and the apex NS record
    const pages: number[] = []
    const db = dbWith({
      prepare: (sql: string) => {
        const statement = env.DB.prepare(sql)
        if (sql !== HELD_PAGE) return statement
        const bind = (...args: unknown[]) => (
          pages.push(args.at(-1) as number),
          statement.bind(...args)
        )
        return Object.assign(Object.create(statement) as D1PreparedStatement, { bind })
      },
    })
    const seq = (await guardOf(zone.id)).changeSeq
    const next = (name: string) => [...all(name).slice(1), txt(name, 300)]
    await axfrThrough(db, zone, next(zone.name), 11)
    // Two pages, the first of at most 1,000,000 characters.
    expect(pages).toHaveLength(2)
    expect(pages[0]! + pages[1]!).toBe(301) // and the apex NS record
    const first = lengths.slice(0, pages[0]).reduce((sum, l) => sum + l.own, 0)
    expect(first).toBeLessThanOrEqual(1_000_000)
    expect(pages[0]).toBeGreaterThan(200)
    expect(await ops(zone.id, seq)).toEqual(['delete t-0', 'create t-300', 'soa'])
    expect(await held(zone)).toEqual(await asLoaded('axfr-diff-long-ref', next))
  })

  it('is built record by record: only the changed names are rebuilt', async () => {
    const zone = await loaded('axfr-diff-build', 400)
    await settle(zone.id)
    const next = [...range(0, 400).filter((i) => i !== 3), 4000].map((i) => a(zone.name, i))
    const committed = await transfer(zone, adds(next), 11, true)
    await builder(zone.id).notify(zone.id, committed)
    const status = await settle(zone.id)
    expect(status.cursor).toBe(committed)
    expect(status.lastPass).toMatchObject({ kind: 'per-record', changes: 3 })
    expect(await kvNode(zone.name, `r-3.${zone.name}`)).toBeNull()
    expect(await kvNode(zone.name, `r-4000.${zone.name}`)).toMatchObject({
      sets: { A: { rdata: ['10.0.15.160'] } },
    })
  })
})
