/**
 * @module The parts of the two worker configs that `pnpm run deploy` reads and edits in place: the
 * D1 shards of wrangler.toml (`DB`, `DB_1`, … with their database names and ids), the KV namespace
 * id both configs bind, and the API worker's CPU limit. Edits replace one id at a time, so the
 * files keep their comments and layout.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const D1_NAME = 'edgedns'
export const KV_TITLE = 'edgedns-zones'
export const API_CONFIG = 'wrangler.toml'
export const DOH_CONFIG = 'workers/doh/wrangler.jsonc'

export class DeployError extends Error {}

/** The KV namespace id sites: the text around each id, captured in group 2. */
const KV_SITES = [
  { file: API_CONFIG, re: /(\[\[kv_namespaces\]\][^[]*?^id = ")([^"]*)(")/m },
  { file: DOH_CONFIG, re: /("kv_namespaces":\s*\[\s*\{[^}]*?"id":\s*")([^"]*)(")/ },
]

/** A `[[d1_databases]]` table of wrangler.toml: its header line and the lines up to the next table. */
const D1_TABLE = /^\[\[d1_databases\]\][^\S\n]*\n(?:(?!\[)[^\n]*(?:\n|$))*/gm
const field = (body, key) =>
  new RegExp(`^${key}\\s*=\\s*"([^"]*)"[^\\S\\n]*(?:#.*)?$`, 'm').exec(body)?.[1]

const read = (root, file) => readFileSync(path.join(root, file), 'utf8')

/** The shard index a binding names: `DB` (or its alias `DB_0`) is 0, `DB_n` is n; others null. */
const shardIndex = (binding) => {
  if (binding === 'DB') return 0
  const m = /^DB_(0|[1-9]\d*)$/.exec(binding)
  return m ? Number(m[1]) : null
}

function d1Tables(text) {
  return [...text.matchAll(D1_TABLE)].map((m) => ({
    at: m.index,
    text: m[0],
    binding: field(m[0], 'binding'),
    name: field(m[0], 'database_name'),
    id: field(m[0], 'database_id') ?? null,
  }))
}

/**
 * The D1 shards wrangler.toml binds, in shard order: `{ binding, name, id }` (`id` null when the
 * table has no `database_id` yet). Refuses what the API would misread: no `DB`, a gap in the
 * numbering (the API stops at the first gap, so later shards would never be used), a database
 * bound twice, or shard 0 under another name than the one the bootstrap writes to.
 */
export function readShards(root) {
  const shards = []
  for (const t of d1Tables(read(root, API_CONFIG))) {
    const index = t.binding === undefined ? null : shardIndex(t.binding)
    if (index === null) continue
    if (!t.name)
      throw new DeployError(`${API_CONFIG}: the D1 binding ${t.binding} has no database_name`)
    shards.push({ index, binding: t.binding, name: t.name, id: t.id })
  }
  shards.sort((a, b) => a.index - b.index)
  shards.forEach((s, i) => {
    if (s.index !== i)
      throw new DeployError(
        `${API_CONFIG}: D1 shard bindings must be numbered DB, DB_1, DB_2, … without gaps or repeats; found ${shards.map((x) => x.binding).join(', ')} (see docs/shards.md)`
      )
  })
  if (shards.length === 0)
    throw new DeployError(`${API_CONFIG}: no D1 binding DB found (the deploy script edits it)`)
  if (shards[0].name !== D1_NAME)
    throw new DeployError(
      `${API_CONFIG}: shard 0 (DB) must be the database ${D1_NAME} (pnpm run bootstrap writes there), not ${shards[0].name}`
    )
  const names = shards.map((s) => s.name)
  const twice = names.find((n, i) => names.indexOf(n) !== i)
  if (twice) throw new DeployError(`${API_CONFIG}: the D1 database ${twice} is bound to two shards`)
  return shards.map(({ binding, name, id }) => ({ binding, name, id }))
}

function kvSite(root, s) {
  const text = read(root, s.file)
  const m = s.re.exec(text)
  if (!m)
    throw new DeployError(
      `${s.file}: no KV namespace id found (the deploy script edits it in place)`
    )
  return { text, value: m[2] }
}

/** The ids the configs hold now: `{ d1: [{ file, binding, id }], kv: [{ file, id }] }`. */
export function readIds(root) {
  return {
    d1: readShards(root).map((s) => ({ file: API_CONFIG, binding: s.binding, id: s.id })),
    kv: KV_SITES.map((s) => ({ file: s.file, id: kvSite(root, s).value })),
  }
}

/** `text` with the `database_id` of the table binding `binding` set to `id` (added if missing). */
function withD1Id(text, binding, id) {
  const t = d1Tables(text).find((x) => x.binding === binding)
  if (!t) throw new DeployError(`${API_CONFIG}: no D1 binding ${binding} found`)
  const edited =
    t.id === null
      ? t.text.replace(
          /^(database_name\s*=\s*"[^"]*".*)$/m,
          (line) => `${line}\ndatabase_id = "${id}"`
        )
      : t.text.replace(
          /^(database_id\s*=\s*")([^"]*)(")/m,
          (_all, before, _old, after) => `${before}${id}${after}`
        )
  return text.slice(0, t.at) + edited + text.slice(t.at + t.text.length)
}

/**
 * Writes each shard's D1 id (`d1Ids`: binding → id) and `kvId` into every site that binds them; a
 * file is rewritten only when one of its ids changes. Returns the files written.
 */
export function writeIds(root, { d1Ids, kvId }) {
  const texts = new Map()
  let api = read(root, API_CONFIG)
  for (const [binding, id] of Object.entries(d1Ids)) api = withD1Id(api, binding, id)
  texts.set(API_CONFIG, api)
  for (const s of KV_SITES) {
    const text = texts.get(s.file) ?? kvSite(root, s).text
    texts.set(
      s.file,
      text.replace(s.re, (_all, before, _old, after) => `${before}${kvId}${after}`)
    )
  }
  const written = []
  for (const [file, text] of texts) {
    if (read(root, file) === text) continue
    writeFileSync(path.join(root, file), text)
    written.push(file)
  }
  return written
}

/** `[limits] cpu_ms` of wrangler.toml, or null when it sets none. */
export function readCpuLimit(root) {
  const limits = /^\[limits\][^\S\n]*\n((?:(?!\[)[^\n]*(?:\n|$))*)/m.exec(read(root, API_CONFIG))
  const ms = limits && /^cpu_ms\s*=\s*([\d_]+)/m.exec(limits[1])
  return ms ? Number(ms[1].replaceAll('_', '')) : null
}

/**
 * Config checks that need no account: the shards are numbered right, every KV site names one
 * namespace (no drift), the API worker sets its CPU limit, and both configs exist.
 */
export function checkConfigs(root, workers) {
  const ids = readIds(root)
  const kv = new Set(ids.kv.map((s) => s.id))
  if (kv.size !== 1) {
    throw new DeployError(
      `the configs bind different KV namespaces (${ids.kv.map((s) => `${s.file}: ${s.id}`).join(', ')}); the API and the DoH worker must share one. Run \`pnpm run deploy\` to write the same id into both.`
    )
  }
  if (readCpuLimit(root) === null)
    throw new DeployError(
      `${API_CONFIG}: no [limits] cpu_ms: the API worker sets its CPU limit per invocation on purpose, above the default, for the heaviest step of the builder's full build (see the comment in ${API_CONFIG} and README § Deploying)`
    )
  for (const w of workers) statSync(path.join(root, w.config))
  return ids
}
