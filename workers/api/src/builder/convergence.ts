/**
 * @module Convergence check: recomputes every KV value of a zone from D1 and compares it with what
 * KV holds (every bucket of the count the zone key announces, empty ones included, at its current
 * version: the one the newest head names or a newer one written since; older versions are
 * superseded and left to the builder's retirement; any other bucket key, or a node key of an old
 * layout, under the zone is stale). Head slots are not compared:
 * they change with every pass. The meta serial is not compared: the meta key is rebuilt on apex and
 * settings changes only, not on every record change (the serial readers serve is the head's).
 *
 * Memory is bounded whatever the zone's size (a million records included):
 * - D1 is read in pages of `pageRows` rows, by key on the identity index (name order, reversed
 *   labels). Each owner name's node is encoded as the bucket line it should be, and only a digest
 *   is kept per bucket: a line count and two 32-bit sums of line hashes, which do not depend on the
 *   order lines arrive in (at most 4,096 buckets). Empty non-terminals are found per page with one
 *   query: an ancestor with no records of its own is emitted at its first descendant in name order.
 * - KV bucket keys are listed once (to find each bucket's current version), then read by the
 *   buckets, 100 keys per bulk get; each bucket's lines get the same digest, and
 *   its text must be canonical (what encodeBucketText gives for its own lines). Other keys under the
 *   zone are listed page by page; only the first ones found stale are kept for the report.
 * - The expected text of a differing bucket is rebuilt, for the first DETAILED_BUCKETS of them, by
 *   a second paged D1 read keeping only their names; further differing buckets are reported
 *   without it.
 * A digest match where texts differ would need a collision of two independent 32-bit sums.
 * The report shows values in their public view (`publicValueText`): sealed DNSSEC keys redacted.
 */
import {
  ancestorsBetween,
  bucketCountFor,
  bucketEntries,
  bucketKey,
  bucketOf,
  bucketVersion,
  decodeZoneMeta,
  EMPTY_BUCKET,
  encodeBucketText,
  encodeNode,
  encodeZoneMeta,
  publicValueText,
  relativeName,
  zoneKey,
} from '@edgedns/kv-layout'
import { jsonChunks } from '../db/json-chunks.ts'
import { reverseName } from '../records/model.ts'
import { readSubzones, readZone } from './queries.ts'
import { EMPTY_NODE, nodeFromRows, VALUE_COLUMNS, zoneMetaFrom, type ValueRow } from './values.ts'
import { BucketDigests } from './bucket-digests.ts'
import { namedVersions, parseBucketKey, sameValue, UNVERSIONED } from './convergence-kv.ts'

interface Difference {
  key: string
  kind: 'missing' | 'stale' | 'different'
  expected?: string
  actual?: string
}

export interface ConvergenceReport {
  zoneId: string
  zone: string | null
  /** Keys D1 says should exist (meta included). */
  expectedKeys: number
  /** Node keys found in KV under the zone prefix, plus the meta key when present. */
  actualKeys: number
  /** The first MAX_REPORTED differences (differenceCount has them all). */
  differences: Difference[]
  differenceCount: number
}

export interface ConvergenceOptions {
  /** D1 rows per page (default 5,000). */
  pageRows?: number
}

const PAGE_ROWS = 5000
/** Keys per KV bulk get (Workers KV's maximum). */
const KV_BULK = 100
/** Differences kept in the report. */
const MAX_REPORTED = 1000
/** Differing buckets whose expected text is rebuilt for the report. */
const DETAILED_BUCKETS = 16

type Env = { DB: D1Database; ZONES_KV: KVNamespace }

const lineOf = (zone: string, name: string, node: string): string =>
  `${relativeName(name, zone)}\t${node}\n`

/** For each ancestor (reversed name): whether it has records, and its first descendant in name order. */
async function ancestorFacts(
  db: D1Database,
  zoneId: string,
  revs: string[]
): Promise<Map<string, { has: boolean; first: string | null }>> {
  const out = new Map<string, { has: boolean; first: string | null }>()
  for (const chunk of jsonChunks(revs)) {
    const { results } = await db
      .prepare(
        `SELECT a.value AS rev,
           EXISTS (SELECT 1 FROM dns_records WHERE zone_id = ?1 AND name_rev = a.value) AS has,
           (SELECT name_rev FROM dns_records WHERE zone_id = ?1 AND name_rev > a.value || '.' AND name_rev < a.value || '/'
             ORDER BY name_rev LIMIT 1) AS first
         FROM json_each(?2) AS a`
      )
      .bind(zoneId, chunk)
      .all<{ rev: string; has: number; first: string | null }>()
    for (const r of results) out.set(r.rev, { has: r.has === 1, first: r.first })
  }
  return out
}

/**
 * Every owner name of the zone below the apex with its encoded node, empty non-terminals included,
 * page by page in name order (`onNode` per name); the apex rows are returned.
 */
async function scanNodes(
  db: D1Database,
  zoneId: string,
  zone: string,
  pageRows: number,
  onNode: (name: string, node: string) => void
): Promise<ValueRow[]> {
  const apex: ValueRow[] = []
  let pending: { name: string; rev: string; rows: ValueRow[] } | null = null
  const finished: { name: string; rev: string; rows: ValueRow[] }[] = []
  const flush = async (
    groups: { name: string; rev: string; rows: ValueRow[] }[]
  ): Promise<void> => {
    const ancestors = new Set<string>()
    for (const g of groups)
      for (const a of ancestorsBetween(g.name, zone)) ancestors.add(reverseName(a))
    const facts = ancestors.size > 0 ? await ancestorFacts(db, zoneId, [...ancestors]) : new Map()
    for (const g of groups) {
      for (const a of ancestorsBetween(g.name, zone)) {
        const f = facts.get(reverseName(a))
        if (f && !f.has && f.first === g.rev) onNode(a, encodeNode(EMPTY_NODE))
      }
      onNode(g.name, encodeNode(nodeFromRows(g.rows)))
    }
  }
  let key: unknown[] = ['', '', '', -2]
  for (;;) {
    const { results } = await db
      .prepare(
        `SELECT name_rev, ${VALUE_COLUMNS} FROM dns_records WHERE zone_id = ?1
           AND (name_rev, type, content, ifnull(priority, -1)) > (?2, ?3, ?4, ?5)
         ORDER BY name_rev, type, content, ifnull(priority, -1) LIMIT ?6`
      )
      .bind(zoneId, ...key, pageRows)
      .all<ValueRow & { name_rev: string }>()
    for (const r of results) {
      if (r.name === zone) {
        apex.push(r)
        continue
      }
      // A name's rows are consecutive in this order; the last name of a page may go on in the next.
      if (pending && pending.name === r.name) pending.rows.push(r)
      else {
        if (pending) finished.push(pending)
        pending = { name: r.name, rev: r.name_rev, rows: [r] }
      }
    }
    await flush(finished.splice(0))
    if (results.length < pageRows) break
    const last = results[results.length - 1]!
    key = [last.name_rev, last.type, last.content, last.priority ?? -1]
  }
  if (pending) await flush([pending])
  return apex
}

/** Counts distinct owner names (the bucket count a zone without a readable meta key would get). */
async function ownerNames(db: D1Database, zoneId: string): Promise<number> {
  return (
    (await db
      .prepare('SELECT count(DISTINCT name_rev) AS n FROM dns_records WHERE zone_id = ?1')
      .bind(zoneId)
      .first<number>('n')) ?? 0
  )
}

/**
 * The report's differences. Texts enter it in their public view only: the zone metadata's sealed
 * DNSSEC private keys are redacted (the comparison itself ran on the stored texts).
 */
class Differences {
  list: Difference[] = []
  count = 0
  add(d: Difference): void {
    this.count++
    if (this.list.length >= MAX_REPORTED) return
    this.list.push({
      key: d.key,
      kind: d.kind,
      ...(d.expected !== undefined ? { expected: publicValueText(d.key, d.expected) } : {}),
      ...(d.actual !== undefined ? { actual: publicValueText(d.key, d.actual) } : {}),
    })
  }
}

/** Compares a zone's KV values with what D1 says they should be, in bounded memory. */
export async function checkConvergence(
  env: Env,
  zoneId: string,
  zoneName?: string,
  options: ConvergenceOptions = {}
): Promise<ConvergenceReport> {
  const pageRows = options.pageRows ?? PAGE_ROWS
  const zone = await readZone(env.DB, zoneId)
  const name = zone?.name ?? zoneName ?? null
  const report: ConvergenceReport = {
    zoneId,
    zone: name,
    expectedKeys: 0,
    actualKeys: 0,
    differences: [],
    differenceCount: 0,
  }
  if (name === null) return report
  const diffs = new Differences()

  // The bucket count is the builder's choice (it grows with the zone); take the one KV announces.
  const rawMeta = await env.ZONES_KV.get(zoneKey(name), 'text')
  let buckets = 0
  if (zone) {
    try {
      if (rawMeta !== null) buckets = decodeZoneMeta(rawMeta).layout?.buckets ?? 0
    } catch {
      // reported as a difference of the meta key below
    }
    if (buckets === 0) buckets = bucketCountFor(await ownerNames(env.DB, zoneId))
  }

  const expected = new BucketDigests(buckets)
  const apexRows = zone
    ? await scanNodes(env.DB, zoneId, name, pageRows, (n, node) =>
        expected.add(bucketOf(n, buckets), lineOf(name, n, node))
      )
    : []

  // Which key of each bucket holds its current text: the version the newest head names, or a
  // newer one written since (the next head will name it; the overlay covers it meanwhile). Older
  // versions are superseded and wait for their deletion; any other key under the zone (another
  // bucket count, an old layout's node keys) is stale.
  const named = zone ? await namedVersions(env.ZONES_KV, name, zoneId) : null
  const newest = new Map<number, number>()
  const staleKeys: string[] = []
  for (const prefix of [`n:${name}:`, `b:${name}:`]) {
    let cursor: string | undefined
    do {
      const listed = await env.ZONES_KV.list({ prefix, ...(cursor ? { cursor } : {}) })
      for (const { name: key } of listed.keys) {
        const parsed = zone ? parseBucketKey(key, name, buckets, zoneId) : null
        if (parsed === null) {
          staleKeys.push(key)
          continue
        }
        const floor = named ? bucketVersion(named, parsed.i) : UNVERSIONED
        if (parsed.v >= floor && parsed.v > (newest.get(parsed.i) ?? Number.NEGATIVE_INFINITY))
          newest.set(parsed.i, parsed.v)
      }
      cursor = listed.list_complete ? undefined : listed.cursor
    } while (cursor)
  }
  const keyOf = (i: number, v: number | undefined): string =>
    v === undefined || v === UNVERSIONED
      ? bucketKey(name, buckets, i)
      : bucketKey(name, buckets, i, { id: zoneId, v })
  const currentKey = (i: number): string =>
    keyOf(i, newest.get(i) ?? (named ? bucketVersion(named, i) : UNVERSIONED))

  // KV by the buckets.
  const actual = new BucketDigests(buckets)
  const differing: { bucket: number; kind: 'missing' | 'different'; actual?: string }[] = []
  let actualKeys = 0
  for (let lo = 0; lo < buckets; lo += KV_BULK) {
    const indexes = Array.from({ length: Math.min(KV_BULK, buckets - lo) }, (_, i) => lo + i)
    const present = indexes.filter((i) => newest.has(i))
    for (const i of indexes) if (!newest.has(i)) differing.push({ bucket: i, kind: 'missing' })
    const keys = present.map(currentKey)
    const values =
      keys.length > 0 ? await env.ZONES_KV.get(keys, 'text') : new Map<string, string | null>()
    keys.forEach((key, k) => {
      const bucket = present[k]!
      const raw = values.get(key) ?? null
      if (raw === null) {
        differing.push({ bucket, kind: 'missing' })
        return
      }
      actualKeys++
      let canonical = false
      try {
        const entries = bucketEntries(raw, name)
        for (const [n, node] of entries) actual.add(bucket, lineOf(name, n, node))
        canonical = encodeBucketText(name, entries) === raw
      } catch {
        // not a bucket text: different
      }
      if (!canonical || !expected.same(actual, bucket))
        differing.push({ bucket, kind: 'different', actual: raw })
    })
  }
  differing.sort((a, b) => a.bucket - b.bucket)

  // The expected texts of the first differing buckets, from a second paged read.
  const detailed = new Map<number, [string, string][]>(
    differing.slice(0, DETAILED_BUCKETS).map((d) => [d.bucket, []])
  )
  if (zone && detailed.size > 0 && differing.some((d) => expected.count[d.bucket]! > 0)) {
    await scanNodes(env.DB, zoneId, name, pageRows, (n, node) =>
      detailed.get(bucketOf(n, buckets))?.push([n, node])
    )
  }
  for (const d of differing) {
    const entries = detailed.get(d.bucket)
    const key = currentKey(d.bucket)
    const text =
      expected.count[d.bucket] === 0
        ? EMPTY_BUCKET
        : entries
          ? encodeBucketText(name, entries)
          : undefined
    diffs.add({
      key,
      kind: d.kind,
      ...(text !== undefined ? { expected: text } : {}),
      ...(d.actual !== undefined ? { actual: d.actual } : {}),
    })
  }

  actualKeys += staleKeys.length
  for (let k = 0; k < staleKeys.length; k += KV_BULK) {
    const chunk = staleKeys.slice(k, k + KV_BULK)
    const shown = chunk.slice(0, Math.max(0, MAX_REPORTED - diffs.list.length))
    const values =
      shown.length > 0 ? await env.ZONES_KV.get(shown, 'text') : new Map<string, string | null>()
    for (const key of chunk)
      diffs.add({
        key,
        kind: 'stale',
        ...(values.get(key) != null ? { actual: values.get(key)! } : {}),
      })
  }

  if (zone) {
    const metaExpected = encodeZoneMeta(
      zoneMetaFrom(zone, apexRows, { buckets }, await readSubzones(env.DB, name))
    )
    if (rawMeta === null) diffs.add({ key: zoneKey(name), kind: 'missing', expected: metaExpected })
    else if (!sameValue(zoneKey(name), metaExpected, rawMeta))
      diffs.add({ key: zoneKey(name), kind: 'different', expected: metaExpected, actual: rawMeta })
  } else if (rawMeta !== null) diffs.add({ key: zoneKey(name), kind: 'stale', actual: rawMeta })
  if (rawMeta !== null) actualKeys++

  report.expectedKeys = zone ? buckets + 1 : 0
  report.actualKeys = actualKeys
  report.differences = diffs.list
  report.differenceCount = diffs.count
  return report
}
