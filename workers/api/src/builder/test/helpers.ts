/**
 * @module Builder test helpers: builder stubs, settling the pipeline, reading KV, fault injection.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import {
  bucketEntries,
  bucketOf,
  decodeNode,
  findInBucket,
  zoneKey,
  type NodeData,
  type ZoneMeta,
} from '@edgedns/kv-layout'
import type { BuilderIo } from '../io.ts'
import type { BuildLimits } from '../limits.ts'
import type { BuilderStatus, ZoneBuilder } from '../zone-builder.ts'
import { checkConvergence, type ConvergenceReport } from '../convergence.ts'
import { api } from '../../../../../test/api/helpers.ts'

export { api, createZone } from '../../../../../test/api/helpers.ts'

export function builder(zoneId: string): DurableObjectStub<ZoneBuilder> {
  return env.ZONE_BUILDER.get(env.ZONE_BUILDER.idFromName(zoneId))
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Highest sequence committed for the zone (its zone_delete after a delete). */
export async function committedSeq(zoneId: string): Promise<number> {
  const row = await env.DB.prepare('SELECT max(seq) AS seq FROM change_log WHERE zone_id = ?1')
    .bind(zoneId)
    .first<{ seq: number }>()
  return row?.seq ?? 0
}

/**
 * Runs alarms (and waits for in-flight notifications) until the builder has built every committed
 * change and no step is running: a step still in flight (e.g. writing a head after its bucket
 * flush) would otherwise finish after the caller has replaced the builder's clock or I/O.
 */
export async function settle(zoneId: string, rounds = 2000): Promise<BuilderStatus> {
  const stub = builder(zoneId)
  for (let i = 0; i < rounds; i++) {
    const status = (await stub.status()) as unknown as BuilderStatus
    const done =
      status.cursor >= (await committedSeq(zoneId)) &&
      !status.full &&
      !status.purge &&
      !status.fullRequested &&
      status.retire.length === 0 &&
      status.dirtyBuckets === 0 &&
      status.zonePending === null &&
      !status.stepping
    if (done && status.lastError === null) return status
    if (!(await runDurableObjectAlarm(stub))) await sleep(2)
  }
  throw new Error(`zone ${zoneId} did not settle: ${JSON.stringify(await stub.status())}`)
}

/**
 * The current key of every bucket of the count the zone key announces: its newest version in KV
 * (the one the newest head names, or one written since that the next head will name).
 */
export async function kvBuckets(zone: string): Promise<Map<number, string>> {
  const b = (await kvMeta(zone))?.layout?.buckets
  const newest = new Map<number, [number, string]>()
  if (b === undefined) return new Map()
  for (const key of await listKeys(`b:${zone}:${b}:`)) {
    const [i, v] = key.slice(`b:${zone}:${b}:`.length).split(':').map(Number)
    const version = v ?? -1
    if ((newest.get(i!)?.[0] ?? -2) < version) newest.set(i!, [version, key])
  }
  return new Map([...newest].sort((x, y) => x[0] - y[0]).map(([i, [, key]]) => [i, key]))
}

/** The current key of bucket `index` (see kvBuckets). */
async function kvBucketKey(zone: string, index: number): Promise<string | undefined> {
  return (await kvBuckets(zone)).get(index)
}

/** A name's node in its bucket's current version (null when the bucket does not hold it). */
export async function kvNode(zone: string, name: string): Promise<NodeData | null> {
  const meta = await kvMeta(zone)
  const b = meta?.layout?.buckets
  if (b === undefined) return null
  const key = await kvBucketKey(zone, bucketOf(name, b))
  if (key === undefined) return null
  const raw = await env.ZONES_KV.get(key, 'text')
  const encoded = raw === null ? null : findInBucket(raw, zone, name)
  return encoded === null ? null : decodeNode(encoded)
}

export async function kvMeta(zone: string): Promise<ZoneMeta | null> {
  return env.ZONES_KV.get(zoneKey(zone), 'json')
}

async function listKeys(prefix: string): Promise<string[]> {
  const out: string[] = []
  let cursor: string | undefined
  do {
    const page = await env.ZONES_KV.list({ prefix, ...(cursor ? { cursor } : {}) })
    out.push(...page.keys.map((k) => k.name))
    cursor = page.list_complete ? undefined : page.cursor
  } while (cursor)
  return out
}

/** A bucket key without its version and zone id (`b:<zone>:<B>:<i>`). */
export function unversioned(key: string): string {
  return key.replace(/^(b:[^:]+:\d+:\d+):\d+:[^:]+$/, '$1')
}

/** Every bucket key of a zone (any count, any version), sorted. */
export async function kvZoneKeys(zone: string): Promise<string[]> {
  return (await listKeys(`b:${zone}:`)).sort()
}

/** Every head slot key of a zone, sorted. */
export async function kvHeadKeys(zone: string): Promise<string[]> {
  return (await listKeys(`h:${zone}:`)).sort()
}

/** Owner names with a node in the zone (in the buckets the zone key announces), sorted. */
export async function kvNames(zone: string): Promise<string[]> {
  const out: string[] = []
  for (const key of (await kvBuckets(zone)).values()) {
    const raw = await env.ZONES_KV.get(key, 'text')
    if (raw !== null) out.push(...bucketEntries(raw, zone).map(([name]) => name))
  }
  return out.sort()
}

export async function converge(zoneId: string, zoneName?: string): Promise<ConvergenceReport> {
  return checkConvergence(env, zoneId, zoneName)
}

/** Changes the builder's I/O or limits inside the Durable Object. */
export async function tweak(
  zoneId: string,
  fn: (b: { io: BuilderIo; limits: BuildLimits }) => void
): Promise<void> {
  await runInDurableObject(builder(zoneId), (instance: ZoneBuilder) => fn(instance))
}

export interface KvCounts {
  puts: string[]
  deletes: string[]
  lists: number
}

/** A KV namespace that records writes and can fail the put/delete calls numbered in `failOn` (1-based). */
export function countingKv(
  kv: KVNamespace,
  counts: KvCounts,
  failOn: Set<number> = new Set()
): KVNamespace {
  let writes = 0
  const maybeFail = (key: string): void => {
    writes++
    if (failOn.has(writes)) throw new Error(`injected KV failure on write ${writes} (${key})`)
  }
  return {
    get: kv.get.bind(kv),
    getWithMetadata: kv.getWithMetadata.bind(kv),
    list: (opts?: KVNamespaceListOptions) => {
      counts.lists++
      return kv.list(opts)
    },
    put: async (key: string, value: string) => {
      maybeFail(key)
      counts.puts.push(key)
      return kv.put(key, value)
    },
    delete: async (key: string) => {
      maybeFail(key)
      counts.deletes.push(key)
      return kv.delete(key)
    },
  } as unknown as KVNamespace
}

export function newCounts(): KvCounts {
  return { puts: [], deletes: [], lists: 0 }
}

/** A D1 database whose `batch` calls numbered in `failOn` (1-based) throw. */
export function failingDb(db: D1Database, failOn: Set<number>): D1Database {
  let batches = 0
  return {
    prepare: db.prepare.bind(db),
    exec: db.exec.bind(db),
    dump: db.dump?.bind(db),
    withSession: db.withSession?.bind(db),
    batch: async (stmts: D1PreparedStatement[]) => {
      batches++
      if (failOn.has(batches)) throw new Error(`injected D1 failure on batch ${batches}`)
      return db.batch(stmts)
    },
  } as unknown as D1Database
}

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export async function post(zoneId: string, body: Record<string, unknown>): Promise<any> {
  const res = await api('POST', `/zones/${zoneId}/dns_records`, body)
  if (res.status !== 200) throw new Error(`create failed: ${JSON.stringify(res.body)}`)
  return res.body.result
}
