/**
 * @module The workers under Miniflare, driven directly (no `wrangler dev` proxy in the way):
 * bundles both workers with wrangler, wires them with the bindings their wrangler.jsonc declare,
 * applies D1 migrations, and exposes dispatchFetch plus a loopback URL for load from another process.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { convertV4MiniflareOptions, Miniflare, Log, LogLevel } from 'miniflare'
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from 'wrangler'
import { ROOT } from '../../scripts/lib/stack.mjs'

const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler')

function bundle(config, outdir) {
  execFileSync(WRANGLER, ['deploy', '--dry-run', '--outdir', outdir, '-c', config], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  })
  const main = readdirSync(outdir).find((f) => f.endsWith('.js'))
  return path.join(outdir, main)
}

function workerOptions(name, config, scriptPath, extra = {}) {
  const { workerOptions: w } = unstable_getMiniflareWorkerOptions(path.join(ROOT, config))
  w.name = name
  delete w.assets
  delete w.modulesRules
  return { ...w, modules: true, scriptPath, modulesRoot: path.dirname(scriptPath), ...extra }
}

/** An empty worker in the same runtime: the ceiling the DoH figures are compared with. */
const EMPTY_WORKER = { name: 'empty', modules: true, script: 'export default { fetch() { return new Response("ok") } }', compatibilityDate: '2026-10-01' }

export async function startBenchStack({ token = 'bench-token', port = 0 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-bench-'))
  const apiScript = bundle('workers/api/wrangler.jsonc', path.join(dir, 'dist-api'))
  const dohScript = bundle('workers/doh/wrangler.jsonc', path.join(dir, 'dist-doh'))
  const api = workerOptions('edgedns-api', 'workers/api/wrangler.jsonc', apiScript, {
    bindings: { MAX_BATCH_CHANGES: '100000', DEV_API_TOKEN: token },
    serviceBindings: { DOH: 'edgedns-doh' },
  })
  delete api.triggers
  const doh = workerOptions('edgedns-doh', 'workers/doh/wrangler.jsonc', dohScript)
  const mf = new Miniflare(convertV4MiniflareOptions({
    host: '127.0.0.1',
    port,
    log: new Log(LogLevel.WARN),
    d1Persist: path.join(dir, 'd1'),
    kvPersist: path.join(dir, 'kv'),
    durableObjectsPersist: path.join(dir, 'do'),
    workers: [api, doh, EMPTY_WORKER],
  }))
  const url = await mf.ready
  const db = await mf.getD1Database('DB', 'edgedns-api')
  for (const file of readdirSync(path.join(ROOT, 'migrations')).filter((f) => f.endsWith('.sql')).sort()) {
    const sql = readFileSync(path.join(ROOT, 'migrations', file), 'utf8')
    for (const stmt of unstable_splitSqlQuery(sql)) await db.prepare(stmt).run()
  }
  return {
    mf,
    url: url.toString().replace(/\/$/, ''),
    token,
    db,
    async close() {
      await mf.dispose()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
