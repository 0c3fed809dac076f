/**
 * @module Head slots: the small, frequently rewritten signal through which readers revalidate a
 * zone they hold in memory.
 *
 * A build pass writes head n into slot `n mod HEAD_SLOTS` (`h:<zone>:<slot>`), so one slot is
 * rewritten only every HEAD_SLOTS passes and passes may follow each other faster than KV's one
 * write per key per second. The value is `<n>\n<json>`: a reader learns whether a slot is newer
 * than what it holds from the first line, without parsing the rest.
 */
import { decodeNode, decodeZoneMeta, KvLayoutError } from './codec.ts'
import { normalizeName } from './names.ts'
import type { NodeData, ZoneHead, ZoneMeta } from './types.ts'

/** Slots per zone: up to this many passes per second under KV's per-key write limit. */
export const HEAD_SLOTS = 8

/** How many recent heads' bucket changes a head repeats (a reader further behind drops the zone's buckets). */
export const HEAD_CHANGE_HISTORY = 32

export function headKey(zone: string, slot: number): string {
  return `h:${normalizeName(zone)}:${slot}`
}

export function headSlot(n: number): number {
  return n % HEAD_SLOTS
}

/** Every head key of a zone (cold reads, purge). */
export function headKeys(zone: string): string[] {
  return Array.from({ length: HEAD_SLOTS }, (_, i) => headKey(zone, i))
}

export interface HeadInput {
  n: number
  seq: number
  /** `encodeZoneMeta` output. */
  meta: string
  /** (full name, encoded node or null) pairs. */
  overlay: Iterable<readonly [string, string | null]>
  changed: readonly (readonly [number, readonly number[] | 'all'])[]
}

export function encodeHead(head: HeadInput): string {
  const overlay = [...head.overlay].map(([name, node]) => `${JSON.stringify(name)}:${node ?? 'null'}`).join(',')
  const changed = JSON.stringify(head.changed.map(([n, b]) => [n, b === 'all' ? -1 : b]))
  return `${head.n}\n{"seq":${head.seq},"meta":${head.meta},"overlay":{${overlay}},"changed":${changed}}`
}

/** The counter of a head value (its first line), or -1 when the value is not a head. */
export function headCounter(text: string): number {
  const nl = text.indexOf('\n')
  if (nl <= 0 || nl > 16) return -1
  const n = Number(text.slice(0, nl))
  return Number.isSafeInteger(n) && n >= 0 ? n : -1
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export function decodeHead(text: string): ZoneHead {
  const n = headCounter(text)
  if (n < 0) throw new KvLayoutError('head: no counter')
  let body: unknown
  try {
    body = JSON.parse(text.slice(text.indexOf('\n') + 1))
  } catch {
    throw new KvLayoutError('head: not JSON')
  }
  if (!isObject(body) || typeof body.seq !== 'number' || !isObject(body.overlay) || !Array.isArray(body.changed)) {
    throw new KvLayoutError('head: bad shape')
  }
  const meta: ZoneMeta = decodeZoneMeta(body.meta)
  const overlay = new Map<string, NodeData | null>()
  for (const [name, node] of Object.entries(body.overlay)) overlay.set(name, node === null ? null : decodeNode(node))
  const changed: [number, number[] | 'all'][] = []
  for (const entry of body.changed) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'number') throw new KvLayoutError('head: bad change entry')
    const b = entry[1]
    if (b === -1) changed.push([entry[0], 'all'])
    else if (Array.isArray(b) && b.every((i) => Number.isInteger(i) && i >= 0)) changed.push([entry[0], b as number[]])
    else throw new KvLayoutError('head: bad change entry')
  }
  return { n, seq: body.seq, meta, overlay, changed }
}

/** A head from a decoded meta alone (a zone whose builder wrote no head yet). */
export function headFromMeta(meta: ZoneMeta): ZoneHead {
  return { n: 0, seq: 0, meta, overlay: new Map(), changed: [] }
}

