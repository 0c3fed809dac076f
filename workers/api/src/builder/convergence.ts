/**
 * @module Convergence check: recomputes every KV value of a zone from D1 (`zoneImage` of its
 * records, the very function fixtures seed KV with) and compares it with what KV holds (every bucket key of the count the zone key announces, empty ones included; any other
 * bucket key, or a node key of an old layout, under the zone is stale). Head slots are not compared:
 * they change with every pass. The meta serial is not compared: the
 * meta key is rebuilt on apex and settings changes only, not on every record change.
 */
import { bucketPrefix, decodeZoneMeta, encodeZoneMeta, headKeys, zoneImage, zoneKey, type NodeData } from '@edgedns/kv-layout'
import { readSubzones, readZone } from './queries.ts'
import { nodeFromRows, VALUE_COLUMNS, zoneMetaFrom, type ValueRow } from './values.ts'

export interface Difference {
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
  differences: Difference[]
}

const PAGE = 5000

/** Reads the whole zone; meant for tests, ops checks and moderate zone sizes. */
export async function checkConvergence(
  env: { DB: D1Database; ZONES_KV: KVNamespace },
  zoneId: string,
  zoneName?: string
): Promise<ConvergenceReport> {
  const zone = await readZone(env.DB, zoneId)
  const name = zone?.name ?? zoneName ?? null
  const report: ConvergenceReport = {
    zoneId,
    zone: name,
    expectedKeys: 0,
    actualKeys: 0,
    differences: [],
  }
  if (name === null) return report

  const expected = new Map<string, string>()
  if (zone) {
    const byName = new Map<string, ValueRow[]>()
    // Paged by key on the identity index (an OFFSET would rescan every earlier row per page).
    let key: unknown[] = ['', '', '', -2]
    for (;;) {
      const { results } = await env.DB.prepare(
        `SELECT name_rev, ${VALUE_COLUMNS} FROM dns_records WHERE zone_id = ?1
           AND (name_rev, type, content, ifnull(priority, -1)) > (?2, ?3, ?4, ?5)
         ORDER BY name_rev, type, content, ifnull(priority, -1) LIMIT ?6`
      )
        .bind(zoneId, ...key, PAGE)
        .all<ValueRow & { name_rev: string }>()
      for (const r of results) (byName.get(r.name) ?? byName.set(r.name, []).get(r.name)!).push(r)
      if (results.length < PAGE) break
      const last = results[results.length - 1]!
      key = [last.name_rev, last.type, last.content, last.priority ?? -1]
    }
    const nodes = new Map<string, NodeData>()
    for (const [n, rows] of byName) if (n !== name) nodes.set(n, nodeFromRows(rows))
    // The bucket count is the builder's choice (it grows with the zone); take the one KV announces.
    const raw = await env.ZONES_KV.get(zoneKey(name), 'text')
    let buckets: number | undefined
    try {
      if (raw !== null) buckets = decodeZoneMeta(raw).layout?.buckets
    } catch {
      // reported as a difference of the meta key below
    }
    const meta = zoneMetaFrom(zone, byName.get(name) ?? [], null, await readSubzones(env.DB, name))
    const heads = new Set(headKeys(name))
    for (const [key, value] of zoneImage(meta, nodes, buckets === undefined ? {} : { buckets })) {
      if (!heads.has(key)) expected.set(key, value)
    }
  }
  report.expectedKeys = expected.size

  const actualKeys: string[] = []
  {
    const prefix = bucketPrefix(name)
    let cursor: string | undefined
    do {
      const listed = await env.ZONES_KV.list({ prefix, ...(cursor ? { cursor } : {}) })
      for (const k of listed.keys) actualKeys.push(k.name)
      cursor = listed.list_complete ? undefined : listed.cursor
    } while (cursor)
  }
  actualKeys.push(zoneKey(name))

  const actual = new Map<string, string>()
  for (let i = 0; i < actualKeys.length; i += 100) {
    const values = await env.ZONES_KV.get(actualKeys.slice(i, i + 100), 'text')
    for (const [k, v] of values) if (v !== null) actual.set(k, v)
  }
  report.actualKeys = actual.size

  for (const [key, value] of expected) {
    const got = actual.get(key)
    if (got === undefined) report.differences.push({ key, kind: 'missing', expected: value })
    else if (!sameValue(key, value, got))
      report.differences.push({ key, kind: 'different', expected: value, actual: got })
  }
  for (const [key, value] of actual) {
    if (!expected.has(key)) report.differences.push({ key, kind: 'stale', actual: value })
  }
  return report
}

function sameValue(key: string, expected: string, actual: string): boolean {
  if (expected === actual) return true
  if (!key.startsWith('z:')) return false
  try {
    const e = decodeZoneMeta(expected)
    const a = decodeZoneMeta(actual)
    // The serial follows apex changes only, and the count being retired is a reader's fallback.
    const layout = a.layout ? { buckets: a.layout.buckets } : undefined
    return encodeZoneMeta({ ...a, serial: e.serial, ...(layout ? { layout } : {}) }) === encodeZoneMeta(e)
  } catch {
    return false
  }
}
