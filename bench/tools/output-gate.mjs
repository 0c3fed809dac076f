#!/usr/bin/env node
/**
 * @module What a Durable Object's storage writes cost the calls after them (the output gate), locally
 * (not part of `pnpm bench`): one object writes to its SQLite storage, sets alarms, puts KV keys,
 * reads D1 and appends to a second object, in the patterns the builder's path from notification to
 * announced head uses. `node bench/tools/output-gate.mjs <pattern>…` (e.g. `d1 notify-old
 * publish-old publish-alt publish-new`); the patterns run interleaved, 50 iterations a round (the
 * first 5 dropped), ROUNDS rounds (default 6); state in a fresh directory under TMPDIR (set
 * TMPDIR=/dev/shm to take the disk out). Prints the mean, median and p90 in ms per pattern.
 */
import { convertV4MiniflareOptions, Miniflare } from 'miniflare'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
const script = `
import { DurableObject } from 'cloudflare:workers'
export class Feed extends DurableObject {
  constructor(ctx, env) { super(ctx, env); ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS log (k INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)') }
  async append(v) { this.ctx.storage.sql.exec('INSERT INTO log (v) VALUES (?)', v); return 1 }
  async noop() { return 1 }
}
export class B extends DurableObject {
  constructor(ctx, env) { super(ctx, env); ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v TEXT)') }
  w() { this.ctx.storage.sql.exec('INSERT OR REPLACE INTO t VALUES (?, ?)', 'k' + Math.random(), 'x'.repeat(200)) }
  async alarm() {}
  async run(kind, n) {
    const feed = this.env.FEED.get(this.env.FEED.idFromName('p'))
    const out = []
    for (let i = 0; i < n; i++) {
      const t0 = performance.now(); const d0 = Date.now()
      const val = 'h'.repeat(400) + i
      if (kind === 'put') await this.env.KV.put('a' + i, val)
      else if (kind === 'write+put') { this.w(); await this.env.KV.put('a' + i, val) }
      else if (kind === 'put2') await Promise.all([this.env.KV.put('a' + i, val), this.env.KV.put('s' + (i % 8), val)])
      else if (kind === 'put-then-put') { await this.env.KV.put('a' + i, val); await this.env.KV.put('s' + (i % 8), val) }
      else if (kind === 'append') await feed.append(val)
      else if (kind === 'write+append') { this.w(); await feed.append(val) }
      else if (kind === 'alarm+put') { await this.ctx.storage.setAlarm(Date.now() + 30000 + i); await this.env.KV.put('a' + i, val) }
      else if (kind === 'alarmU+put') { await this.ctx.storage.setAlarm(Date.now() + 30000 + i, { allowUnconfirmed: true }); await this.env.KV.put('a' + i, val) }
      else if (kind === 'put-before-write') { const p = this.env.KV.put('a' + i, val); this.w(); await p }
      else if (kind === 'kvput+put') { this.ctx.storage.kv.put('st', val); await this.env.KV.put('a' + i, val) }
      else if (kind === 'publish-old') { this.w(); this.w(); await Promise.all([this.env.KV.put('a' + i, val), this.env.KV.put('s' + (i % 8), val)]); this.w(); await feed.append(val); this.w() }
      else if (kind === 'publish-new') { this.w(); this.w(); await this.env.KV.put('a' + i, val); await Promise.all([this.env.KV.put('s' + (i % 8), val), feed.append(val)]); this.w() }
      else if (kind === 'publish-alt') { this.w(); this.w(); await Promise.all([this.env.KV.put('a' + i, val), this.env.KV.put('s' + (i % 8), val)]); await feed.append(val); this.w(); this.w() }
      else if (kind === 'notify-old') { this.ctx.storage.kv.put('st', val); await this.ctx.storage.setAlarm(Date.now() + 30000 + i); await this.env.DB.prepare('SELECT ?1 AS x').bind(i).first() }
      else if (kind === 'notify-new') { await this.env.DB.prepare('SELECT ?1 AS x').bind(i).first(); this.ctx.storage.kv.put('st', val); await this.ctx.storage.setAlarm(Date.now() + 30000 + i) }
      else if (kind === 'd1') { await this.env.DB.prepare('SELECT ?1 AS x').bind(i).first() }
      else if (kind === 'noop') await feed.noop()
      else if (kind === 'put+append') await Promise.all([this.env.KV.put('s' + (i % 8), val), feed.append(val)])
      else if (kind === 'put;append') { await this.env.KV.put('s' + (i % 8), val); await feed.append(val) }
      else if (kind === 'put;write;append') { await this.env.KV.put('s' + (i % 8), val); this.w(); await feed.append(val) }
      out.push(Date.now() - d0)
    }
    return out
  }
}
export default { async fetch(req, env) {
  const u = new URL(req.url); const b = env.B.get(env.B.idFromName('b'))
  return Response.json(await b.run(u.searchParams.get('k'), Number(u.searchParams.get('n'))))
} }`
const dir = mkdtempSync(path.join(tmpdir(), 'gate-'))
const mf = new Miniflare(
  convertV4MiniflareOptions({
    resourcePersistencePath: dir,
    workers: [
      {
        name: 'w',
        modules: true,
        script,
        compatibilityDate: '2026-10-01',
        kvNamespaces: ['KV'],
        d1Databases: ['DB'],
        durableObjects: {
          B: { className: 'B', useSQLite: true },
          FEED: { className: 'Feed', useSQLite: true },
        },
      },
    ],
  })
)
const kinds = process.argv.slice(2)
const res = Object.fromEntries(kinds.map((k) => [k, []]))
for (let r = 0; r < Number(process.env.ROUNDS ?? 6); r++)
  for (const k of kinds) {
    const t = await (await mf.dispatchFetch(`http://x/?k=${encodeURIComponent(k)}&n=50`)).json()
    res[k].push(...t.slice(5))
  }
for (const k of kinds) {
  const v = res[k].sort((a, b) => a - b)
  const q = (p) => v[Math.floor(p * (v.length - 1))]
  console.log(
    k.padEnd(18),
    'mean',
    (v.reduce((a, b) => a + b, 0) / v.length).toFixed(2),
    'p50',
    q(0.5),
    'p90',
    q(0.9)
  )
}
await mf.dispose()
