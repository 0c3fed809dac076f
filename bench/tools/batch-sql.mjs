/**
 * @module The SQL of the batch write path alone (not part of `pnpm bench`): runs `applyBatch` from
 * a checkout against a real local D1 database (Miniflare's, the one the bench stack uses: workerd's
 * SQLite in a file), with that checkout's migrations, on a zone of `base` records, and reports for
 * the mixed 10,000-change batch of the bench (a third each deletes, content patches, posts of A
 * records) each statement's own SQL time as the D1 simulator measures it (`meta.duration`), summed
 * by statement kind, and the rows SQLite read and wrote. `--plans` prints EXPLAIN QUERY PLAN of
 * every statement the batch sends, with its real parameters.
 * usage: node --experimental-transform-types bench/tools/batch-sql.mjs [root=.] [base=100000] [n=10000] [reps=7] [--plans]
 * Pass another checkout's root (with its dependencies installed) to compare two commits.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { convertV4MiniflareOptions, Miniflare, Log, LogLevel } from 'miniflare'
import { unstable_splitSqlQuery } from 'wrangler'

const args = process.argv.slice(2)
const plans = args.includes('--plans')
const [rootArg = '.', baseArg = '100000', nArg = '10000', repsArg = '7'] = args.filter(
  (a) => !a.startsWith('--')
)
const root = path.resolve(rootArg)
const [base, n, reps] = [baseArg, nArg, repsArg].map(Number)
const api = `${root}/workers/api/src`
const { applyBatch } = await import(`${api}/batch/apply.ts`)

const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-batch-sql-'))
const mf = new Miniflare(
  convertV4MiniflareOptions({
    log: new Log(LogLevel.WARN),
    // Persisted in files, as the bench stack's D1 is (Miniflare 5 keeps every resource under one root).
    resourcePersistencePath: path.join(dir, 'state'),
    workers: [
      {
        name: 'batch-sql',
        modules: true,
        script: 'export default { fetch() { return new Response("") } }',
        compatibilityDate: '2026-10-01',
        d1Databases: { DB: 'batch-sql' },
      },
    ],
  })
)

/** What a statement is, for the summary: its first words (the change log, the guard, …). */
function kindOf(sql) {
  const s = sql.replace(/\s+/g, ' ').trim()
  if (s.startsWith('UPDATE zones')) return 'guard (UPDATE zones)'
  if (s.startsWith('INSERT INTO change_log')) return 'change log (INSERT change_log)'
  if (s.startsWith('DELETE FROM dns_records')) return 'delete (DELETE dns_records)'
  if (s.startsWith('UPDATE dns_records')) return 'update (UPDATE dns_records)'
  if (s.startsWith('INSERT INTO dns_records')) return 'insert (INSERT dns_records)'
  if (s.startsWith('SELECT version')) return 'load: zone'
  if (s.includes('name_rev IN (SELECT name_rev')) return 'load: names of rewritten ids'
  if (s.includes('name_rev IN')) return 'load: names written'
  if (s.includes('id IN')) return 'load: deleted ids'
  return s.slice(0, 40)
}

try {
  const db = await mf.getD1Database('DB')
  for (const file of readdirSync(path.join(root, 'migrations'))
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(path.join(root, 'migrations', file), 'utf8')
    for (const stmt of unstable_splitSqlQuery(sql)) await db.prepare(stmt).run()
  }
  const zoneId = 'f'.repeat(32)
  const zoneName = 'batch-sql.example'
  const now = new Date().toISOString()
  await db
    .prepare(
      `INSERT INTO zones (id, account_id, name, name_servers, soa_mname, soa_rname, serial, created_on, modified_on)
       VALUES (?1, 'a0000000000000000000000000000001', ?2, '[]', 'ns1.example', 'hostmaster.example', 1, ?3, ?3)`
    )
    .bind(zoneId, zoneName, now)
    .run()
  await db
    .prepare("UPDATE zones SET name_rev = 'example.batch-sql' WHERE id = ?1")
    .bind(zoneId)
    .run()
    .catch(() => {}) // checkouts before zones.name_rev

  // A D1 stand-in that records each statement's SQL and parameters and keeps each batch's results.
  let last = null
  const traced = {
    prepare: (sql) => ({
      bind: (...params) => ({ sql, params, stmt: db.prepare(sql).bind(...params) }),
    }),
    async batch(stmts) {
      const results = await db.batch(stmts.map((s) => s.stmt))
      last = { stmts, results }
      return results
    },
  }
  const target = { zoneId, zoneName, tokenId: 'batch-sql' }
  const aRecord = (prefix, i) => ({
    type: 'A',
    name: `${prefix}-${i}`,
    content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    ttl: 300,
  })
  const fresh = (prefix, k) => Array.from({ length: k }, (_, i) => aRecord(prefix, i))
  for (let start = 0; start < base; start += 50_000) {
    const posts = []
    for (let i = start; i < Math.min(base, start + 50_000); i++) posts.push(aRecord('base', i))
    await applyBatch(traced, target, { posts }, true)
  }

  const rows = []
  for (let r = 0; r < reps; r++) {
    const setup = await applyBatch(traced, target, { posts: fresh(`s${r}`, n) }, true)
    const sid = setup.plan.result.posts.map((x) => x.id)
    const third = Math.floor(n / 3)
    const mixed = {
      deletes: sid.slice(0, third).map((id) => ({ id })),
      patches: sid
        .slice(third, 2 * third)
        .map((id, i) => ({ id, content: `172.16.${(i >> 8) & 255}.${i & 255}` })),
      posts: fresh(`m${r}`, n - 2 * third),
    }
    // Load alone first (same statements as the batch's load), for its SQL time.
    const loadStmts = []
    const loadTrace = {
      prepare: traced.prepare,
      async batch(stmts) {
        const results = await db.batch(stmts.map((s) => s.stmt))
        if (stmts[0].sql.startsWith('SELECT version')) loadStmts.push({ stmts, results })
        else last = { stmts, results }
        return results
      },
    }
    const applied = await applyBatch(loadTrace, target, mixed, true)
    const row = { load: 0, write: 0, node: applied.timings }
    const byKind = {}
    for (const [phase, batch] of [
      ['load', loadStmts.at(-1)],
      ['write', last],
    ]) {
      batch.stmts.forEach((s, k) => {
        const meta = batch.results[k].meta
        const kind = kindOf(s.sql)
        byKind[kind] ??= { ms: 0, statements: 0, rowsRead: 0, rowsWritten: 0 }
        byKind[kind].ms += meta.duration
        byKind[kind].statements += 1
        byKind[kind].rowsRead += meta.rows_read ?? 0
        byKind[kind].rowsWritten += meta.rows_written ?? 0
        row[phase] += meta.duration
      })
    }
    row.byKind = byKind
    rows.push(row)
    console.log(
      JSON.stringify({
        rep: r,
        sqlLoadMs: +row.load.toFixed(1),
        sqlWriteMs: +row.write.toFixed(1),
        kinds: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, +v.ms.toFixed(1)])),
      })
    )
    if (plans && r === 0) {
      for (const batch of [loadStmts.at(-1), last]) {
        for (const s of batch.stmts) {
          const plan = await db
            .prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
            .bind(...s.params)
            .all()
          console.log(`\n-- ${kindOf(s.sql)}\n${s.sql.replace(/\s+/g, ' ').slice(0, 220)}`)
          for (const p of plan.results) console.log(`   ${p.detail}`)
        }
      }
      console.log()
    }
    const leftover = [...sid.slice(third), ...applied.plan.result.posts.map((x) => x.id)]
    await applyBatch(traced, target, { deletes: leftover.map((id) => ({ id })) }, true)
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const kinds = Object.keys(rows[0].byKind)
  console.log(
    JSON.stringify(
      {
        root,
        base,
        n,
        reps,
        'median SQL ms': {
          load: +med(rows.map((x) => x.load)).toFixed(1),
          write: +med(rows.map((x) => x.write)).toFixed(1),
          ...Object.fromEntries(
            kinds.map((k) => [k, +med(rows.map((x) => x.byKind[k]?.ms ?? 0)).toFixed(1)])
          ),
        },
        'rows read / written (last rep)': Object.fromEntries(
          kinds.map((k) => [k, [rows.at(-1).byKind[k].rowsRead, rows.at(-1).byKind[k].rowsWritten]])
        ),
      },
      null,
      1
    )
  )
} finally {
  await mf.dispose()
  rmSync(dir, { recursive: true, force: true })
}
