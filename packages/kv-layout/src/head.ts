/**
 * @module Head slots: the small, frequently rewritten signal through which readers revalidate a
 * zone they hold in memory.
 *
 * A build pass writes head n into slot `n mod HEAD_SLOTS` (`h:<zone>:<slot>`), so one slot is
 * rewritten only every HEAD_SLOTS passes and passes may follow each other faster than KV's one
 * write per key per second. The value is `<n> <zone id>\n<json>`: a reader learns from the first
 * line, without parsing the rest, whether a slot is newer than what it holds and whether it belongs
 * to the zone it holds at all (a zone deleted and created again under the same name may leave the
 * earlier zone's heads in slots the new one has not written yet).
 */
import { lookupName } from '@edgedns/dns-facts'
import { decodeNode, decodeZoneMeta, KvLayoutError } from './codec.ts'
import { decodeBucketVersions, encodeBucketVersions } from './head-versions.ts'
import type { BucketVersions, NodeData, ZoneHead, ZoneMeta } from './types.ts'

/** Slots per zone: up to this many passes per second under KV's per-key write limit. */
export const HEAD_SLOTS = 8

/** How many recent heads' bucket changes a head repeats (a reader further behind drops the zone's buckets). */
export const HEAD_CHANGE_HISTORY = 32

export function headKey(zone: string, slot: number): string {
  return `h:${lookupName(zone)}:${slot}`
}

/**
 * Head n of the zone with this id under a key of its own, written once before the zone-change feed
 * names it (the slot copy follows the feed entry): a reader told by the feed that head n exists reads a key no location
 * has read. The id is in the key because a zone deleted and created again under the same name
 * counts its heads from 1 again, and a location may still keep the earlier zone's head n.
 */
export function headVersionKey(zone: string, id: string, n: number): string {
  return `h:${lookupName(zone)}:v:${id}:${n}`
}

/** The version of bucket `index` a head names. */
export function bucketVersion(versions: BucketVersions, index: number): number {
  return versions.changed.get(index) ?? versions.base
}

export function headSlot(n: number): number {
  return n % HEAD_SLOTS
}

/** Every head key of a zone (cold reads, purge). */
export function headKeys(zone: string): string[] {
  return Array.from({ length: HEAD_SLOTS }, (_, i) => headKey(zone, i))
}

/**
 * An overlay larger than this many characters is written to a key of its own (`overlayKey`) and the
 * head only names it: heads stay small, because readers read two slots (often older heads) on every
 * confirmation.
 */
export const OVERLAY_INLINE_MAX = 16 * 1024

/**
 * Key of a large overlay, written once for head n of the zone with this id (a new key every time,
 * deleted after a grace period; the id keeps a zone created again from meeting an earlier one's).
 */
export function overlayKey(zone: string, id: string, n: number): string {
  return `${overlayPrefix(zone)}${id}:${n}`
}

/** Prefix shared by every overlay key of a zone (purges). */
export function overlayPrefix(zone: string): string {
  return `o:${lookupName(zone)}:`
}

/** An overlay as JSON: `{"<name>": <encoded node or null>, …}`. */
export function encodeOverlay(overlay: Iterable<readonly [string, string | null]>): string {
  return `{${[...overlay].map(([name, node]) => `${JSON.stringify(name)}:${node ?? 'null'}`).join(',')}}`
}

export function decodeOverlay(value: unknown): Map<string, NodeData | null> {
  let body = value
  if (typeof value === 'string') {
    try {
      body = JSON.parse(value)
    } catch {
      throw new KvLayoutError('overlay: not JSON')
    }
  }
  if (!isObject(body)) throw new KvLayoutError('overlay: not an object')
  const overlay = new Map<string, NodeData | null>()
  for (const [name, node] of Object.entries(body))
    overlay.set(name, node === null ? null : decodeNode(node))
  return overlay
}

export interface HeadInput {
  n: number
  seq: number
  /** `encodeZoneMeta` output. */
  meta: string
  /** (full name, encoded node or null) pairs; ignored when `overlayKey` is given. */
  overlay: Iterable<readonly [string, string | null]>
  /** The key the overlay was written to instead (see OVERLAY_INLINE_MAX). */
  overlayKey?: string
  changed: readonly (readonly [number, readonly number[] | 'all'])[]
  /** Bucket versions (layout format 4); absent: unversioned bucket keys. */
  bv?: BucketVersions
  /** The versions table `bv` completes (see head-versions.ts); `bv` then lists only the changes since. */
  versionsKey?: string
}

export function encodeHead(head: HeadInput): string {
  const id = decodeZoneMeta(head.meta).id
  if (!/^[^\s]{1,100}$/.test(id))
    throw new KvLayoutError(`head: zone id ${JSON.stringify(id)} cannot name a head`)
  const changed = JSON.stringify(head.changed.map(([n, b]) => [n, b === 'all' ? -1 : b]))
  const overlay =
    head.overlayKey !== undefined
      ? `"overlayKey":${JSON.stringify(head.overlayKey)}`
      : `"overlay":${encodeOverlay(head.overlay)}`
  const bv = head.bv ? `,"bv":${encodeBucketVersions(head.bv)}` : ''
  const table =
    head.versionsKey !== undefined ? `,"versionsKey":${JSON.stringify(head.versionsKey)}` : ''
  return `${head.n} ${id}\n{"seq":${head.seq},"meta":${head.meta},${overlay},"changed":${changed}${bv}${table}}`
}

/** Longest first line a head may have: the counter, a space and the zone id. */
const MAX_FIRST_LINE = 128

/** The counter of a head value (its first line), or -1 when the value is not a head. */
export function headCounter(text: string): number {
  const nl = text.indexOf('\n')
  if (nl <= 0 || nl > MAX_FIRST_LINE) return -1
  const sp = text.indexOf(' ')
  const n = Number(text.slice(0, sp > 0 && sp < nl ? sp : nl))
  return Number.isSafeInteger(n) && n >= 0 ? n : -1
}

/**
 * The zone id a head value names in its first line; null for a head written before heads named
 * their zone (taken as the zone's own: only a zone's builder writes its slots).
 */
export function headZoneId(text: string): string | null {
  const nl = text.indexOf('\n')
  const sp = text.indexOf(' ')
  return sp > 0 && sp < nl ? text.slice(sp + 1, nl) : null
}

/** Whether a slot's value is a head of the zone with this id (see headZoneId). */
export function isHeadOf(text: string, zoneId: string): boolean {
  const id = headZoneId(text)
  return id === null || id === zoneId
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
  const overlayKeyOf =
    body && typeof body === 'object' ? (body as Record<string, unknown>).overlayKey : undefined
  if (
    !isObject(body) ||
    typeof body.seq !== 'number' ||
    !(isObject(body.overlay) || typeof overlayKeyOf === 'string') ||
    !Array.isArray(body.changed)
  ) {
    throw new KvLayoutError('head: bad shape')
  }
  const meta: ZoneMeta = decodeZoneMeta(body.meta)
  const overlay = isObject(body.overlay)
    ? decodeOverlay(body.overlay)
    : new Map<string, NodeData | null>()
  const changed: [number, number[] | 'all'][] = []
  for (const entry of body.changed) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'number')
      throw new KvLayoutError('head: bad change entry')
    const b = entry[1]
    if (b === -1) changed.push([entry[0], 'all'])
    else if (Array.isArray(b) && b.every((i) => Number.isInteger(i) && i >= 0))
      changed.push([entry[0], b as number[]])
    else throw new KvLayoutError('head: bad change entry')
  }
  const head: ZoneHead = { n, seq: body.seq, meta, overlay, changed }
  if (typeof overlayKeyOf === 'string') head.overlayKey = overlayKeyOf
  if (body.bv !== undefined) head.bv = decodeBucketVersions(body.bv)
  if (body.versionsKey !== undefined) {
    if (typeof body.versionsKey !== 'string' || head.bv === undefined)
      throw new KvLayoutError('head: bad versions table')
    head.versionsKey = body.versionsKey
  }
  return head
}

/** A head from a decoded meta alone (a zone whose builder wrote no head yet). */
export function headFromMeta(meta: ZoneMeta): ZoneHead {
  return { n: 0, seq: 0, meta, overlay: new Map(), changed: [] }
}
