/**
 * @module The steps of `pnpm run deploy`, over an injected wrangler runner (`run(args) → stdout`):
 * find or create the D1 database and the KV namespace by name, write their ids into every config
 * that binds them, apply migrations remotely, deploy the DoH worker then the API. And the dry run:
 * config checks and bundles measured against the Workers plan limits, with no account.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

export const D1_NAME = 'edgedns'
export const KV_TITLE = 'edgedns-zones'
export const API_CONFIG = 'wrangler.toml'
export const DOH_CONFIG = 'workers/doh/wrangler.jsonc'

/** Largest compressed (gzip) worker upload per plan. The product needs Workers Paid. */
export const PLAN_LIMITS = { free: 3 * 1024 * 1024, paid: 10 * 1024 * 1024 }

/** Workers in deployment order: the DoH worker first, then the API. */
export const WORKERS = [
  { name: 'edgedns-doh', config: DOH_CONFIG },
  { name: 'edgedns-api', config: API_CONFIG },
]

/** Where each config names the resources: the text around each id, captured in group 2. */
const ID_SITES = [
  { file: API_CONFIG, what: 'D1 database_id', re: /^(database_id = ")([^"]*)(")$/m, kind: 'd1' },
  {
    file: API_CONFIG,
    what: 'KV namespace id',
    re: /(\[\[kv_namespaces\]\][^[]*?^id = ")([^"]*)(")/m,
    kind: 'kv',
  },
  {
    file: DOH_CONFIG,
    what: 'KV namespace id',
    re: /("kv_namespaces":\s*\[\s*\{[^}]*?"id":\s*")([^"]*)(")/,
    kind: 'kv',
  },
]

export class DeployError extends Error {}

function site(root, s) {
  const text = readFileSync(path.join(root, s.file), 'utf8')
  const m = s.re.exec(text)
  if (!m)
    throw new DeployError(`${s.file}: no ${s.what} found (the deploy script edits it in place)`)
  return { text, value: m[2] }
}

/** The ids the configs hold now: { d1: [..], kv: [..] } with one entry per binding site. */
export function readIds(root) {
  const ids = { d1: [], kv: [] }
  for (const s of ID_SITES) ids[s.kind].push({ file: s.file, id: site(root, s).value })
  return ids
}

/**
 * Writes `d1Id` and `kvId` into every site that binds them; a file is rewritten only when one of
 * its ids changes. Returns the files written.
 */
export function writeIds(root, { d1Id, kvId }) {
  const texts = new Map()
  for (const s of ID_SITES) {
    const text = texts.get(s.file) ?? site(root, s).text
    const want = s.kind === 'd1' ? d1Id : kvId
    texts.set(
      s.file,
      text.replace(s.re, (_all, before, _old, after) => `${before}${want}${after}`)
    )
  }
  const written = []
  for (const [file, text] of texts) {
    const full = path.join(root, file)
    if (readFileSync(full, 'utf8') === text) continue
    writeFileSync(full, text)
    written.push(file)
  }
  return written
}

/** Config checks that need no account: every KV site names one namespace (no drift). */
export function checkConfigs(root) {
  const ids = readIds(root)
  const kv = new Set(ids.kv.map((s) => s.id))
  if (kv.size !== 1) {
    throw new DeployError(
      `the configs bind different KV namespaces (${ids.kv.map((s) => `${s.file}: ${s.id}`).join(', ')}); the API and the DoH worker must share one. Run \`pnpm run deploy\` to write the same id into both.`
    )
  }
  for (const w of WORKERS) statSync(path.join(root, w.config))
  return ids
}

function parseJson(what, out) {
  try {
    return JSON.parse(out.slice(out.indexOf('[')))
  } catch {
    throw new DeployError(`${what}: wrangler did not answer JSON:\n${out}`)
  }
}

/** The D1 database named `edgedns`, created if missing. */
export function findOrCreateD1(run) {
  const find = () =>
    parseJson('wrangler d1 list', run(['d1', 'list', '--json'])).find((d) => d.name === D1_NAME)
  let db = find()
  const created = !db
  if (created) {
    run(['d1', 'create', D1_NAME])
    db = find()
    if (!db)
      throw new DeployError(
        `wrangler d1 create ${D1_NAME} succeeded but the database is not listed`
      )
  }
  return { id: db.uuid, created }
}

/** The KV namespace titled `edgedns-zones`, created if missing. */
export function findOrCreateKv(run) {
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

const workersDevUrl = (out) => /https:\/\/[\w.-]+\.workers\.dev\b/.exec(out)?.[0] ?? null

/** The whole deployment, idempotent: a second run creates nothing and leaves the configs as they are. */
export function deploy({ run, root, log = () => {} }) {
  checkConfigs(root)
  let d1
  try {
    d1 = findOrCreateD1(run)
  } catch (e) {
    if (e instanceof DeployError) throw e
    throw new DeployError(
      `cannot reach your Cloudflare account (log in with \`pnpm exec wrangler login\`, or set CLOUDFLARE_API_TOKEN):\n${e.message}`
    )
  }
  log(`D1 database ${D1_NAME}: ${d1.id}${d1.created ? ' (created)' : ''}`)
  const kv = findOrCreateKv(run)
  log(`KV namespace ${KV_TITLE}: ${kv.id}${kv.created ? ' (created)' : ''}`)
  const written = writeIds(root, { d1Id: d1.id, kvId: kv.id })
  if (written.length > 0) log(`ids written into ${written.join(', ')} (commit them)`)
  log('applying D1 migrations remotely…')
  run(['d1', 'migrations', 'apply', D1_NAME, '--remote', '-c', API_CONFIG])
  const urls = {}
  for (const w of WORKERS) {
    log(`deploying ${w.name}…`)
    urls[w.name] = workersDevUrl(run(['deploy', '-c', w.config]))
  }
  return { d1, kv, written, urls }
}

/** Raw and gzip-compressed size of a bundle directory (source maps excluded: they are not the script). */
export function measureBundle(dir) {
  let raw = 0
  const chunks = []
  const walk = (d) => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, f.name)
      if (f.isDirectory()) walk(p)
      else if (!f.name.endsWith('.map')) {
        const bytes = readFileSync(p)
        raw += bytes.length
        chunks.push(bytes)
      }
    }
  }
  walk(dir)
  return { raw, gzip: gzipSync(Buffer.concat(chunks)).length }
}

/**
 * Everything that needs no account: config checks, then each worker bundled by
 * `wrangler deploy --dry-run --outdir` and measured against the plan limits. Throws when a
 * bundle is over the Workers Paid limit; notes when it is over the Free one.
 */
export function dryRun({ run, root, outdir, limits = PLAN_LIMITS, log = () => {} }) {
  checkConfigs(root)
  const bundles = []
  for (const w of WORKERS) {
    const dir = path.join(outdir, w.name)
    mkdirSync(dir, { recursive: true })
    run(['deploy', '--dry-run', '--outdir', dir, '-c', w.config])
    const size = measureBundle(dir)
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
