/**
 * Large imports are written in bounded pieces and stay all or nothing: rows are staged in chunks
 * nobody reads, then committed by one transaction of bounded statements. A failure while staging
 * or inside the commit leaves the zone, its change log and the staging table exactly as before;
 * a write to the zone during staging makes the import re-plan instead of losing either change; and
 * the builder builds what an import committed. Everything runs under the strict D1 binding.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { applyStrictLimits } from '@edgedns/strict-bindings'
import {
  discardAbandonedImports,
  importRecords,
  type ImportTarget,
} from '../../workers/api/src/zonefile-bridge/staged-import.ts'
import { converge, settle } from '../../workers/api/src/builder/test/helpers.ts'
import { api, createZone } from './helpers.ts'
import { importZone } from './import-export-helpers.ts'

const strictDb = (): D1Database => applyStrictLimits({ ...env, STRICT_LIMITS: '1' }).DB

interface ZoneState {
  records: number
  logRows: number
  version: number
  changeSeq: number
  staged: number
}

async function zoneState(zoneId: string): Promise<ZoneState> {
  const q = (sql: string) => env.DB.prepare(sql).bind(zoneId).first<number>('n')
  return {
    records: (await q('SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1'))!,
    logRows: (await q('SELECT count(*) AS n FROM change_log WHERE zone_id = ?1'))!,
    version: (await q('SELECT version AS n FROM zones WHERE id = ?1'))!,
    changeSeq: (await q('SELECT change_seq AS n FROM zones WHERE id = ?1'))!,
    staged: (await env.DB.prepare('SELECT count(*) AS n FROM import_staging').first<number>('n'))!,
  }
}

function hosts(
  n: number,
  prefix = 'h'
): { type: 'A'; name: string; content: string; ttl: number }[] {
  return Array.from({ length: n }, (_, i) => ({
    type: 'A' as const,
    name: `${prefix}${i}`,
    content: `10.1.${(i >> 8) & 255}.${i & 255}`,
    ttl: 300,
  }))
}

async function target(prefix: string): Promise<ImportTarget> {
  const z = await createZone(prefix)
  await api('POST', `/zones/${z.id}/dns_records`, {
    type: 'TXT',
    name: '@',
    content: 'already here',
  })
  return { zoneId: z.id, zoneName: z.name, tokenId: 'dev' }
}

/** A D1 binding that records every statement run and every batch's size. */
function recordingDb(db: D1Database) {
  const runs: string[] = []
  const batches: string[][] = []
  const wrapped = {
    prepare: (sql: string) => {
      const stmt = db.prepare(sql)
      const track = (s: D1PreparedStatement): D1PreparedStatement =>
        new Proxy(s, {
          get(t, k) {
            if (k === 'bind') return (...args: unknown[]) => track(t.bind(...args))
            if (k === 'run' || k === 'all' || k === 'first' || k === 'raw')
              return (...args: unknown[]) => (runs.push(sql), (t as any)[k](...args))
            if (k === '__sql') return sql
            const v = (t as any)[k]
            return typeof v === 'function' ? v.bind(t) : v
          },
        })
      return track(stmt)
    },
    batch: (stmts: D1PreparedStatement[]) => {
      batches.push(stmts.map((s) => (s as any).__sql as string))
      return db.batch(stmts.map((s) => s))
    },
    exec: db.exec.bind(db),
  } as unknown as D1Database
  return { db: wrapped, runs, batches }
}

describe('staged zone-file imports', () => {
  it('stages in statements of bounded size and commits in one batch of bounded statements', async () => {
    const t = await target('staged-shape')
    const before = await zoneState(t.zoneId)
    const rec = recordingDb(strictDb())
    const out = await importRecords(rec.db, t, hosts(1_050), { rowsPerStatement: 100 })
    expect(out).toMatchObject({ created: 1_050, seq: before.changeSeq + 1_050, attempts: 1 })
    expect(rec.runs.filter((s) => s.startsWith('INSERT INTO import_staging'))).toHaveLength(11)
    // One transaction writes: the guard, then 11 ranges into change_log and 11 into dns_records
    // (the other batches are the plan's reads).
    const writing = rec.batches.filter((b) => b.some((s) => !s.trimStart().startsWith('SELECT')))
    expect(writing).toHaveLength(1)
    expect(writing[0]![0]).toMatch(/^UPDATE zones SET version/)
    expect(writing[0]!.filter((s) => s.startsWith('INSERT INTO change_log'))).toHaveLength(11)
    expect(writing[0]!.filter((s) => s.startsWith('INSERT INTO dns_records'))).toHaveLength(11)
    expect(writing[0]).toHaveLength(23)
    expect(rec.runs.filter((s) => s.startsWith('DELETE FROM import_staging'))).toHaveLength(11)
    const after = await zoneState(t.zoneId)
    expect(after).toEqual({
      records: before.records + 1_050,
      logRows: before.logRows + 1_050,
      version: before.version + 1,
      changeSeq: before.changeSeq + 1_050,
      staged: 0,
    })
    // The change log numbers the import's records in file order, as creates with the new names.
    const log = await env.DB.prepare(
      'SELECT seq, op, new_name, type, before FROM change_log WHERE zone_id = ?1 AND seq > ?2 ORDER BY seq LIMIT 2'
    )
      .bind(t.zoneId, before.changeSeq)
      .all()
    expect(log.results).toEqual([
      {
        seq: before.changeSeq + 1,
        op: 'create',
        new_name: `h0.${t.zoneName}`,
        type: 'A',
        before: null,
      },
      {
        seq: before.changeSeq + 2,
        op: 'create',
        new_name: `h1.${t.zoneName}`,
        type: 'A',
        before: null,
      },
    ])
    const last = await env.DB.prepare(
      'SELECT type, content, ttl FROM dns_records WHERE zone_id = ?1 AND name = ?2'
    )
      .bind(t.zoneId, `h1049.${t.zoneName}`)
      .all()
    expect(last.results).toEqual([{ type: 'A', content: '10.1.4.25', ttl: 300 }])
  })

  it('a failure while staging leaves nothing behind, and readers never see the staged rows', async () => {
    const t = await target('staged-fail')
    const before = await zoneState(t.zoneId)
    let midImport: { state: ZoneState; listed: number } | null = null
    const run = importRecords(strictDb(), t, hosts(600), {
      rowsPerStatement: 100,
      afterStagedChunk: async (chunk) => {
        if (chunk === 2) {
          const listed = await api('GET', `/zones/${t.zoneId}/dns_records?per_page=1000`)
          midImport = {
            state: await zoneState(t.zoneId),
            listed: listed.body.result_info.total_count,
          }
        }
        if (chunk === 3) throw new Error('injected: worker lost mid-import')
      },
    })
    await expect(run).rejects.toThrow('injected: worker lost mid-import')
    expect(midImport).toEqual({ state: { ...before, staged: 300 }, listed: before.records })
    expect(await zoneState(t.zoneId)).toEqual(before)
  })

  it('a failure inside the commit batch rolls every statement of it back', async () => {
    const t = await target('staged-commit-fail')
    const before = await zoneState(t.zoneId)
    const run = importRecords(strictDb(), t, hosts(500), {
      rowsPerStatement: 100,
      // The last staged row loses its name: the commit's last INSERT fails after the others ran.
      afterStagedChunk: async (chunk) => {
        if (chunk === 4)
          await env.DB.prepare(
            "UPDATE import_staging SET row = json_set(row, '$[2]', NULL) WHERE ord = 499"
          ).run()
      },
    })
    await expect(run).rejects.toThrow(/NOT NULL constraint failed: dns_records\.name/)
    expect(await zoneState(t.zoneId)).toEqual(before)
  })

  it('a write to the zone while the import is staged makes it re-plan: both are kept', async () => {
    const t = await target('staged-race')
    const before = await zoneState(t.zoneId)
    let wrote = false
    const out = await importRecords(strictDb(), t, hosts(300), {
      rowsPerStatement: 100,
      afterStagedChunk: async () => {
        if (wrote) return
        wrote = true
        expect(
          (
            await api('POST', `/zones/${t.zoneId}/dns_records`, {
              type: 'A',
              name: 'concurrent',
              content: '192.0.2.9',
            })
          ).status
        ).toBe(200)
      },
    })
    expect(out).toMatchObject({ created: 300, attempts: 2, seq: before.changeSeq + 301 })
    expect(await zoneState(t.zoneId)).toEqual({
      records: before.records + 301,
      logRows: before.logRows + 301,
      version: before.version + 2,
      changeSeq: before.changeSeq + 301,
      staged: 0,
    })
  })

  it('the cron removes staged rows of an import whose worker died, after an hour', async () => {
    await env.DB.prepare(
      "INSERT INTO import_staging (import_id, ord, zone_id, row, created_on) VALUES ('dead', 0, 'z', '[]', ?1), ('fresh', 0, 'z', '[]', ?2)"
    )
      .bind(new Date(Date.now() - 2 * 3600_000).toISOString(), new Date().toISOString())
      .run()
    expect(await discardAbandonedImports(strictDb())).toBe(1)
    const left = await env.DB.prepare(
      "SELECT import_id FROM import_staging WHERE import_id IN ('dead', 'fresh')"
    ).all()
    expect(left.results).toEqual([{ import_id: 'fresh' }])
    await env.DB.prepare("DELETE FROM import_staging WHERE import_id = 'fresh'").run()
  })

  it('the builder builds an import of more than one staged range: KV matches D1', async () => {
    const z = await createZone('staged-build')
    await settle(z.id)
    const lines = ['$TTL 300']
    for (let i = 0; i < 6_000; i++) lines.push(`h${i} A 10.2.${(i >> 8) & 255}.${i & 255}`)
    const res = await importZone(z.id, lines.join('\n') + '\n', { as: 'file' })
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200)
    expect(res.body.result.recs_added).toBe(6_000)
    const status = await settle(z.id)
    expect(status.cursor).toBe(Number(res.headers.get('x-edgedns-change-seq')))
    const report = await converge(z.id)
    expect(report.differences).toEqual([])
    expect(report.expectedKeys).toBeGreaterThan(1)
  }, 60_000)
})
