/**
 * @module The steps of `pnpm run deploy`, over an injected wrangler runner
 * (`run(args, { input }) → stdout`): find or create every D1 shard wrangler.toml binds and the KV
 * namespace by name, write their ids into every config that binds them, apply the migrations to
 * every shard remotely, deploy the API worker then the DoH worker (the DoH worker binds Durable
 * Objects of the API worker by script name, so the API's classes must exist first), put the DNSSEC
 * secret on both, and say what to run next. And the dry run: config checks and bundles measured
 * against the Workers plan limits, with no account.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import {
  API_CONFIG,
  DOH_CONFIG,
  DeployError,
  KV_TITLE,
  checkConfigs,
  readShards,
  writeIds,
} from './deploy-config.mjs'
import { ensureDnssecSecret } from './deploy-secret.mjs'

export { API_CONFIG, DOH_CONFIG, DeployError, readCpuLimit, readIds } from './deploy-config.mjs'
export { DNSSEC_SECRET, SECRET_FILE } from './deploy-secret.mjs'

/** Largest compressed (gzip) worker upload per plan. The product needs Workers Paid. */
export const PLAN_LIMITS = { free: 3 * 1024 * 1024, paid: 10 * 1024 * 1024 }

/**
 * Production bundles take `@edgedns/strict-bindings/off` for the strict test harness (the same
 * names doing nothing): the harness never ships. `wrangler dev`, tests and benchmarks keep it.
 */
export const PRODUCTION_ALIAS = ['--alias', '@edgedns/strict-bindings:@edgedns/strict-bindings/off']
/** Text only the strict harness contains: a production bundle holding it is refused. */
export const HARNESS_MARKER = 'Production limit breached'

/** Workers in deployment order: the API first (it defines the Durable Objects), then DoH. */
const WORKERS = [
  { name: 'edgedns-api', config: API_CONFIG },
  { name: 'edgedns-doh', config: DOH_CONFIG },
]

function parseJson(what, out) {
  try {
    return JSON.parse(out.slice(out.indexOf('[')))
  } catch {
    throw new DeployError(`${what}: wrangler did not answer JSON:\n${out}`)
  }
}

/**
 * Every shard of wrangler.toml (`{ binding, name }`) as a D1 database of the account, created if
 * missing: `[{ binding, name, id, created }]`.
 */
function findOrCreateD1(run, shards) {
  const list = () => parseJson('wrangler d1 list', run(['d1', 'list', '--json']))
  let dbs = list()
  const missing = shards.filter((s) => !dbs.some((d) => d.name === s.name))
  for (const s of missing) run(['d1', 'create', s.name])
  if (missing.length > 0) dbs = list()
  return shards.map((s) => {
    const db = dbs.find((d) => d.name === s.name)
    if (!db)
      throw new DeployError(`wrangler d1 create ${s.name} succeeded but the database is not listed`)
    return { binding: s.binding, name: s.name, id: db.uuid, created: missing.includes(s) }
  })
}

/** The KV namespace titled `edgedns-zones`, created if missing. */
function findOrCreateKv(run) {
  const find = () =>
    parseJson('wrangler kv namespace list', run(['kv', 'namespace', 'list'])).find(
      (n) => n.title === KV_TITLE
    )
  let ns = find()
  const created = !ns
  if (created) {
    run(['kv', 'namespace', 'create', KV_TITLE])
    ns = find()
    if (!ns)
      throw new DeployError(
        `wrangler kv namespace create ${KV_TITLE} succeeded but the namespace is not listed`
      )
  }
  return { id: ns.id, created }
}

/**
 * The URL a worker answers on, from `wrangler deploy`'s list of triggers: its workers.dev URL,
 * else its first custom domain; null when it has neither (routes on a zone only).
 */
export function deployedUrl(out) {
  const dev = /https:\/\/[\w.-]+\.workers\.dev\b/.exec(out)?.[0]
  if (dev) return dev
  const domain = /^\s+([a-z0-9.-]+\.[a-z]{2,}) \(custom domain\b/im.exec(out)?.[1]
  return domain ? `https://${domain}` : null
}

/**
 * The whole deployment, idempotent: a second run creates nothing, leaves the configs as they are
 * and reuses the DNSSEC secret. Returns what it found or made, and the workers' URLs.
 */
export function deploy({ run, root, log = () => {} }) {
  checkConfigs(root, WORKERS)
  const shards = readShards(root)
  let d1
  try {
    d1 = findOrCreateD1(run, shards)
  } catch (e) {
    if (e instanceof DeployError) throw e
    throw new DeployError(
      `cannot reach your Cloudflare account (log in with \`pnpm exec wrangler login\`, or set CLOUDFLARE_API_TOKEN):\n${e.message}`
    )
  }
  for (const db of d1)
    log(`D1 database ${db.name} (${db.binding}): ${db.id}${db.created ? ' (created)' : ''}`)
  const kv = findOrCreateKv(run)
  log(`KV namespace ${KV_TITLE}: ${kv.id}${kv.created ? ' (created)' : ''}`)
  const written = writeIds(root, {
    d1Ids: Object.fromEntries(d1.map((db) => [db.binding, db.id])),
    kvId: kv.id,
  })
  if (written.length > 0) log(`ids written into ${written.join(', ')} (commit them)`)
  for (const db of d1) {
    log(`applying D1 migrations to ${db.name} remotely…`)
    run(['d1', 'migrations', 'apply', db.name, '--remote', '-c', API_CONFIG])
  }
  const urls = {}
  for (const w of WORKERS) {
    log(`deploying ${w.name}…`)
    urls[w.name] = deployedUrl(run(['deploy', ...PRODUCTION_ALIAS, '-c', w.config]))
  }
  const secret = ensureDnssecSecret({ run, root, workers: WORKERS, log })
  return { d1, kv, written, urls, secret }
}

/** What to tell the operator after a deploy: where each worker answers and what to run next. */
export function deployedMessage(urls) {
  const api = urls['edgedns-api']
  const doh = urls['edgedns-doh']
  const unknown =
    '(no workers.dev URL or custom domain: see the routes in the wrangler output above)'
  return `
Deployed.
  API, dashboard and /dns-query  ${api ?? unknown}
  DoH endpoint                   ${doh ? `${doh}/dns-query` : unknown}
Nothing answers classic DNS on port 53: only DNS over HTTPS, at /dns-query of the URLs above.
For port 53, run the DNS front on your own hosts: pnpm build:dns-front, then deploy/dns-front/
(docs/dns-front.md).
Next, once (mints the first admin token):
  pnpm run bootstrap${api ? ` --url ${api}` : ''}`
}

/** Raw and gzip-compressed size of a bundle directory (source maps excluded: they are not the script). */
function measureBundle(dir) {
  let raw = 0
  let harness = false
  const chunks = []
  const walk = (d) => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, f.name)
      if (f.isDirectory()) walk(p)
      else if (!f.name.endsWith('.map')) {
        const bytes = readFileSync(p)
        raw += bytes.length
        chunks.push(bytes)
        if (bytes.includes(HARNESS_MARKER)) harness = true
      }
    }
  }
  walk(dir)
  return { raw, gzip: gzipSync(Buffer.concat(chunks)).length, harness }
}

/**
 * Everything that needs no account: config checks, then each worker bundled by
 * `wrangler deploy --dry-run --outdir` and measured against the plan limits. Throws when a
 * bundle is over the Workers Paid limit; notes when it is over the Free one.
 */
export function dryRun({ run, root, outdir, limits = PLAN_LIMITS, log = () => {} }) {
  checkConfigs(root, WORKERS)
  const bundles = []
  for (const w of WORKERS) {
    const dir = path.join(outdir, w.name)
    mkdirSync(dir, { recursive: true })
    run(['deploy', '--dry-run', '--outdir', dir, ...PRODUCTION_ALIAS, '-c', w.config])
    const size = measureBundle(dir)
    if (size.harness)
      throw new DeployError(
        `the ${w.name} bundle contains the strict test harness (${HARNESS_MARKER}): is the alias to @edgedns/strict-bindings/off applied?`
      )
    bundles.push({
      ...w,
      ...size,
      overFree: size.gzip > limits.free,
      overPaid: size.gzip > limits.paid,
    })
  }
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`
  log('bundle sizes (limit: compressed size; Free 3 MB, Paid 10 MB):')
  for (const b of bundles)
    log(
      `  ${b.name.padEnd(12)} ${kib(b.raw).padStart(12)} raw  ${kib(b.gzip).padStart(12)} gzip${b.overPaid ? '  OVER the Paid limit' : b.overFree ? '  over the Free limit' : ''}`
    )
  const over = bundles.filter((b) => b.overPaid)
  if (over.length > 0)
    throw new DeployError(
      `bundle over the Workers Paid limit of ${kib(limits.paid)} compressed: ${over.map((b) => b.name).join(', ')}`
    )
  return bundles
}
