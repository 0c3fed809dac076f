/**
 * @module Convergence check: recomputes every KV value of a zone from D1 and compares it with what
 * KV holds (node keys by prefix listing, and the meta key). The meta serial is not compared: the
 * meta key is rebuilt on apex and settings changes only, not on every record change.
 */
import {
  ancestorsBetween,
  decodeZoneMeta,
  encodeNode,
  encodeZoneMeta,
  nodeKey,
  zoneKey,
} from '@edgedns/kv-layout'
import { readZone } from './queries.ts'
import { EMPTY_NODE, nodeFromRows, VALUE_COLUMNS, zoneMetaFrom, type ValueRow } from './values.ts'

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
    for (let offset = 0; ; offset += PAGE) {
      const { results } = await env.DB.prepare(
        `SELECT ${VALUE_COLUMNS} FROM dns_records WHERE zone_id = ?1 ORDER BY name_rev, type, content LIMIT ?2 OFFSET ?3`
      )
        .bind(zoneId, PAGE, offset)
        .all<ValueRow>()
      for (const r of results) (byName.get(r.name) ?? byName.set(r.name, []).get(r.name)!).push(r)
      if (results.length < PAGE) break
    }
    for (const [n, rows] of byName) {
      if (n === name) continue
      expected.set(nodeKey(name, n), encodeNode(nodeFromRows(rows)))
      for (const a of ancestorsBetween(n, name)) {
        if (!byName.has(a)) expected.set(nodeKey(name, a), encodeNode(EMPTY_NODE))
      }
    }
    expected.set(zoneKey(name), encodeZoneMeta(zoneMetaFrom(zone, byName.get(name) ?? [])))
  }
  report.expectedKeys = expected.size

  const actualKeys: string[] = []
  const prefix = nodeKey(name, '')
  let cursor: string | undefined
  do {
    const listed = await env.ZONES_KV.list({ prefix, ...(cursor ? { cursor } : {}) })
    for (const k of listed.keys) actualKeys.push(k.name)
    cursor = listed.list_complete ? undefined : listed.cursor
  } while (cursor)
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
    return encodeZoneMeta({ ...a, serial: e.serial }) === encodeZoneMeta(e)
  } catch {
    return false
  }
}
