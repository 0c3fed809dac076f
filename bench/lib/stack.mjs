/**
 * @module The workers under Miniflare, driven directly (no `wrangler dev` proxy in the way):
 * bundles both workers with wrangler, wires them with the bindings their wrangler.jsonc declare,
 * applies D1 migrations, and exposes dispatchFetch plus loopback URLs for load from another
 * process: `url` (Miniflare's entry, routes to the API worker, which passes /dns-query to the DoH
 * worker over its service binding) and direct sockets of their own for the DoH and empty workers
 * (`dohUrl`, `emptyUrl`: workerd serves them itself, no entry worker and no API hop in between).
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import path from 'node:path'
import { convertV4MiniflareOptions, Miniflare, Log, LogLevel } from 'miniflare'
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from 'wrangler'
import { ROOT } from '../../scripts/lib/stack.mjs'
import {
  devVars,
  localBuilderSettings,
  localDohSettings,
  localZoneSettings,
} from '../../scripts/lib/dev-vars.mjs'

const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler')
/** The workerd binary Miniflare runs (its own dependency). */
const WORKERD_BIN = createRequire(import.meta.resolve('miniflare'))('workerd').default

function bundle(config, outdir) {
  execFileSync(WRANGLER, ['deploy', '--dry-run', '--outdir', outdir, '-c', config], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  })
  const main = readdirSync(outdir).find((f) => f.endsWith('.js'))
  return path.join(outdir, main)
}

export function workerOptions(name, config, scriptPath, extra = {}) {
  const { workerOptions: w } = unstable_getMiniflareWorkerOptions(path.join(ROOT, config))
  w.name = name
  delete w.assets
  delete w.modulesRules
  return { ...w, modules: true, scriptPath, modulesRoot: path.dirname(scriptPath), ...extra }
}

/** A socket of its own for a worker: loopback, any free port, straight to the worker. */
export const DIRECT = [{ host: '127.0.0.1', port: 0, proxy: false }]

/** An empty worker in the same runtime: the ceiling the DoH figures are compared with. */
const EMPTY_WORKER = {
  name: 'empty',
  modules: true,
  script: 'export default { fetch() { return new Response("ok") } }',
  compatibilityDate: '2026-10-01',
  unsafeDirectSockets: DIRECT,
}

/**
 * One KV read and nothing else, on the same namespace as the DoH worker: the local KV simulator's
 * own ceiling, which separates the storage emulation's cost from the DoH worker's.
 */
const KV_PROBE_WORKER = {
  name: 'kv-probe',
  modules: true,
  script:
    'export default { async fetch(req, env) { const k = new URL(req.url).searchParams.get("k"); return new Response(await env.ZONES_KV.get(k) ?? "") } }',
  compatibilityDate: '2026-10-01',
  kvNamespaces: { ZONES_KV: 'edgedns-zones' },
  unsafeDirectSockets: DIRECT,
}

/** A script in `dir` that runs workerd with its stdout and stderr line-buffered (coreutils `stdbuf`). */
function lineBuffered(dir) {
  const script = path.join(dir, 'workerd-line-buffered.sh')
  writeFileSync(script, `#!/bin/sh\nexec stdbuf -oL -eL '${WORKERD_BIN}' "$@"\n`, { mode: 0o755 })
  return script
}

/** Builder pacing used by the bench stack: 0 = the pipeline's own cost (stated in the report). */
export const BENCH_KV_KEY_WRITE_INTERVAL_MS = '0'

const trimUrl = (u) => u.toString().replace(/\/$/, '')

/**
 * Starts API + DoH + empty workers. `dir` keeps state somewhere chosen by the caller (and
 * `keep` leaves it on close), so a later runtime can start from the same persisted KV.
 */
export async function startBenchStack({
  token = 'bench-token',
  port = 0,
  apiBindings = {},
  dohBindings = {},
  extraWorkers = [],
  dir,
  keep = false,
  shards = 1,
  /** Serve workerd's inspector (CPU profiles) on this port; off by default. */
  inspectorPort,
  /** V8 flags for every isolate of the runtime (e.g. `--expose-gc`); none by default. */
  v8Flags = [],
  /**
   * Called with every line the runtime prints (`{ level, message }`; V8's own output, such as
   * `--trace-gc`, arrives as level `log`); warnings and errors are still printed.
   */
  onRuntimeLog,
  /**
   * 'local': the DoH read path with the local settings of `.dev.vars` (REVALIDATE_MS …);
   * 'deployed': with none of them (nor the feed replicas' local pull age), so the deployed
   * defaults apply (workers/doh/src/env.ts).
   */
  readSettings = 'local',
  /**
   * Remove `dir` on close in a detached `rm -rf` instead of waiting for it (stores of hundreds of
   * thousands of values take minutes to delete; the next section need not wait).
   */
  removeInBackground = false,
} = {}) {
  const readPath = readSettings === 'deployed' ? {} : localDohSettings()
  // The feed replicas' pull age belongs to the read path too: deployed, its default applies.
  const builderSettings = localBuilderSettings()
  if (readSettings === 'deployed') delete builderSettings.FEED_REPLICA_MAX_AGE_MS
  dir ??= mkdtempSync(path.join(tmpdir(), 'edgedns-bench-'))
  const apiScript = bundle('wrangler.toml', path.join(dir, 'dist-api'))
  const dohScript = bundle('workers/doh/wrangler.jsonc', path.join(dir, 'dist-doh'))
  const api = workerOptions('edgedns-api', 'wrangler.toml', apiScript, {
    bindings: {
      // 100,000-change batches plus the batch section's cleanup (up to n + 1 deletes).
      MAX_BATCH_CHANGES: '200000',
      DEV_API_TOKEN: token,
      KV_KEY_WRITE_INTERVAL_MS: BENCH_KV_KEY_WRITE_INTERVAL_MS,
      ...readPath,
      ...builderSettings,
      ...localZoneSettings(),
      DNSSEC_KEY_ENCRYPTION_KEY: devVars().DNSSEC_KEY_ENCRYPTION_KEY,
      ...apiBindings,
    },
    serviceBindings: { DOH: 'edgedns-doh' },
    unsafeDirectSockets: DIRECT,
  })
  // D1 shards beyond the configured `DB` (shard 0, with the directory): DB_1 … DB_{shards-1}.
  const shardBindings = Array.from({ length: shards - 1 }, (_, i) => `DB_${i + 1}`)
  api.d1Databases = {
    ...api.d1Databases,
    ...Object.fromEntries(shardBindings.map((b) => [b, { id: `edgedns-${b.toLowerCase()}` }])),
  }
  delete api.triggers
  // DOH_STATS: `GET /stats` on the DoH worker's socket (its view's counters; one isolate here).
  const doh = workerOptions('edgedns-doh', 'workers/doh/wrangler.jsonc', dohScript, {
    bindings: {
      DOH_STATS: '1',
      ...readPath,
      DNSSEC_KEY_ENCRYPTION_KEY: devVars().DNSSEC_KEY_ENCRYPTION_KEY,
      ...dohBindings,
    },
    unsafeDirectSockets: DIRECT,
  })
  // Miniflare reads workerd's V8 flags and binary from the environment when it starts the runtime.
  const envBefore = {
    MINIFLARE_WORKERD_V8_FLAGS: process.env.MINIFLARE_WORKERD_V8_FLAGS,
    MINIFLARE_WORKERD_PATH: process.env.MINIFLARE_WORKERD_PATH,
  }
  if (v8Flags.length > 0) process.env.MINIFLARE_WORKERD_V8_FLAGS = v8Flags.join(' ')
  // V8 prints to workerd's stdout, a pipe (block-buffered): line-buffer it so each line arrives as printed.
  if (onRuntimeLog) process.env.MINIFLARE_WORKERD_PATH = lineBuffered(dir)
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port,
      ...(inspectorPort ? { inspectorPort } : {}),
      cf: false,
      log: new Log(LogLevel.WARN),
      ...(onRuntimeLog
        ? {
            handleStructuredLogs: (line) => {
              onRuntimeLog(line)
              if (line.level === 'warn' || line.level === 'error') console.error(line.message)
            },
          }
        : {}),
      // Miniflare 5 persists every resource under one root (the v4 *Persist options are ignored).
      resourcePersistencePath: path.join(dir, 'state'),
      workers: [api, doh, EMPTY_WORKER, KV_PROBE_WORKER, ...extraWorkers],
    })
  )
  let url
  try {
    url = await mf.ready
  } finally {
    for (const [k, v] of Object.entries(envBefore)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
  const dbs = [await mf.getD1Database('DB', 'edgedns-api')]
  for (const b of shardBindings) dbs.push(await mf.getD1Database(b, 'edgedns-api'))
  const migrations = readdirSync(path.join(ROOT, 'migrations'))
    .filter((f) => f.endsWith('.sql'))
    .sort()
  for (const shardDb of dbs) {
    for (const file of migrations) {
      const sql = readFileSync(path.join(ROOT, 'migrations', file), 'utf8')
      for (const stmt of unstable_splitSqlQuery(sql)) await shardDb.prepare(stmt).run()
    }
  }
  const db = dbs[0]
  return {
    mf,
    url: trimUrl(url),
    apiUrl: trimUrl(await mf.unsafeGetDirectURL('edgedns-api')),
    dohUrl: trimUrl(await mf.unsafeGetDirectURL('edgedns-doh')),
    emptyUrl: trimUrl(await mf.unsafeGetDirectURL('empty')),
    kvProbeUrl: trimUrl(await mf.unsafeGetDirectURL('kv-probe')),
    /** Direct URL of one of `extraWorkers` (each needs `unsafeDirectSockets: DIRECT_SOCKET`). */
    urlOf: async (name) => trimUrl(await mf.unsafeGetDirectURL(name)),
    token,
    db,
    /** Every D1 shard: `dbs[0]` is `db` (shard 0, with the directory). */
    dbs,
    dir,
    stateDir: path.join(dir, 'state'),
    dohScript,
    /** The API worker's scheduled handler (the cron's maintenance), run once now. */
    async cron() {
      const worker = await mf.getWorker('edgedns-api')
      return worker.scheduled({ cron: '* * * * *' })
    },
    /** The ZoneBuilder of a zone, over RPC (status(): cursor, lastPass, lastFullBuild…). */
    async builder(zoneId) {
      const ns = await mf.getDurableObjectNamespace('ZONE_BUILDER', 'edgedns-api')
      return ns.get(ns.idFromName(zoneId))
    },
    async close() {
      await mf.dispose()
      if (keep) return
      if (removeInBackground) spawn('rm', ['-rf', dir], { detached: true, stdio: 'ignore' }).unref()
      else rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * A fresh runtime serving only the DoH worker from persisted KV (start-to-first-answer, DoH memory).
 * It runs without the zone-change feed: the feed's objects live in the API worker, which this
 * runtime does not start, so zones are confirmed through their head slots (the DoH worker's path
 * when the feed is absent). Returns the Miniflare instance and the DoH worker's direct URL.
 */
export async function startDohOnly({ dohScript, stateDir }) {
  const doh = workerOptions('edgedns-doh', 'workers/doh/wrangler.jsonc', dohScript, {
    bindings: localDohSettings(),
    unsafeDirectSockets: DIRECT,
  })
  // ZONE_FEED and ZONE_FEED_REPLICA name classes of the API worker, which is not here.
  delete doh.durableObjects
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      cf: false,
      log: new Log(LogLevel.WARN),
      resourcePersistencePath: stateDir,
      workers: [doh],
    })
  )
  try {
    await mf.ready
    return { mf, dohUrl: trimUrl(await mf.unsafeGetDirectURL('edgedns-doh')) }
  } catch (err) {
    // A runtime that did not start must not outlive the call (the memory section counts workerd processes).
    await mf.dispose().catch(() => {})
    throw err
  }
}
