/**
 * @module A zone view's cold read: which of a name's candidate zones exist and their newest heads,
 * in one bulk get where it can. A zone the feed's window (or the view's memory of evicted zones)
 * names a head for is read by that head's versioned key, with the name's buckets alongside when
 * the remembered head names them all at one version; any other candidate by its zone key and
 * every head slot (without a feed, with the name's buckets under every ladder count too, within
 * a key budget). A named head that is not there (expired) sends its zone the slot way after.
 */
import type { FeedClient } from '@edgedns/zone-feed'
import { decodeZoneMeta, KvLayoutError } from './codec.ts'
import {
  decodeHead,
  headCounter,
  headFromMeta,
  headKeys,
  headVersionKey,
  isHeadOf,
} from './head.ts'
import type { HeldZones } from './held-zones.ts'
import { zoneKey } from './keys.ts'
import { IMMUTABLE_CACHE_TTL_S, SIGNAL_CACHE_TTL_S } from './kv-reads.ts'
import { knownBucketKeys, speculativeKeys, type ZoneEntry } from './zone-entry.ts'
import type { ZoneHead } from './types.ts'

/**
 * Most keys a cold read without a feed reads in one round trip with the buckets (parallel bulk
 * calls of 100); above it the buckets are read after the zone is known.
 */
const SPECULATIVE_KEY_BUDGET = 300

/** The view's side of a cold read. */
export interface ColdReadIo {
  read(keys: string[], cacheTtl?: number): Promise<Map<string, string | null>>
  feed: FeedClient | undefined
  held: HeldZones
  /** The head with its overlay read when it lives in a key of its own; null while that key is not visible. */
  withOverlay(head: ZoneHead, cacheTtl?: number): Promise<ZoneHead | null>
  markAbsent(zone: string): void
  notAbsent(zone: string): void
  /** Holds a zone read at `confirmedAt` (the view adds what the feed named meanwhile). */
  add(name: string, head: ZoneHead, raw: string, confirmedAt: number): ZoneEntry
  now(): number
}

/**
 * One bulk get: for each zone the feed's window names with a head, that head's versioned key;
 * for the others the zone key and every head slot, and (within budget, without a feed) the
 * name's buckets under every count. A zone whose named head is not there is read the slot way
 * after.
 */
export async function coldRead(
  io: ColdReadIo,
  name: string,
  zones: string[]
): Promise<Map<string, string | null> | null> {
  const named = new Map<string, { id: string; n: number }>()
  const slotted: string[] = []
  const alongside: string[] = []
  for (const z of zones) {
    const known = io.held.known(z)
    const w = io.feed?.window(z) ?? (known ? { op: 'head', ...known } : undefined)
    if (w?.op === 'delete') io.markAbsent(z)
    else if (w && w.n >= 1) {
      named.set(z, w)
      if (known?.buckets && known.id === w.id && known.n === w.n)
        alongside.push(...knownBucketKeys(name, z, known.id, known.buckets))
    } else slotted.push(z)
  }
  const startedAt = io.now()
  const [fromNamed, fromSlots] = await Promise.all([
    named.size > 0 ? coldReadNamed(io, named, alongside, startedAt) : { missed: [], values: null },
    slotted.length > 0 ? coldReadSlots(io, name, slotted, startedAt) : null,
  ])
  // A named head not there (expired): that zone is read the slot way.
  if (fromNamed.missed.length > 0) await coldReadSlots(io, name, fromNamed.missed, startedAt)
  if (!fromNamed.values) return fromSlots
  if (fromSlots) for (const [k, v] of fromSlots) fromNamed.values.set(k, v)
  return fromNamed.values
}

/**
 * Cold read of zones the window names heads for: their versioned heads (and overlays), with the
 * `alongside` keys in the same bulk get. Returns the zones whose head is not there, and the
 * values read when there were keys alongside.
 */
async function coldReadNamed(
  io: ColdReadIo,
  named: Map<string, { id: string; n: number }>,
  alongside: string[],
  startedAt: number
): Promise<{ missed: string[]; values: Map<string, string | null> | null }> {
  const keys = [...named].map(([z, w]) => headVersionKey(z, w.id, w.n))
  const values = await io.read([...keys, ...alongside], IMMUTABLE_CACHE_TTL_S)
  const missed: string[] = []
  await Promise.all(
    [...named].map(async ([z, w], k) => {
      const text = values.get(keys[k]!) ?? null
      if (text === null || !isHeadOf(text, w.id)) return void missed.push(z)
      const head = await io.withOverlay(decodeHead(text), IMMUTABLE_CACHE_TTL_S)
      if (!head) return void missed.push(z)
      io.notAbsent(z)
      const old = io.held.get(z)
      if (old && old.head.meta.id === head.meta.id && old.head.n >= head.n) return
      io.add(z, head, '', startedAt)
    })
  )
  return { missed, values: alongside.length > 0 ? values : null }
}

/**
 * The newest of a zone's slot heads (newest first) whose overlay key and versions table can be
 * read. None: the newest, held as one behind so that the next confirmation takes it again, when
 * only its overlay is missing (its bucket versions are complete); when it names a versions table,
 * an error (its own list of versions is not enough to read a bucket by).
 */
async function newestReadable(io: ColdReadIo, zone: string, texts: string[]): Promise<ZoneHead> {
  for (const text of texts) {
    const head = await io.withOverlay(decodeHead(text))
    if (head) return head
  }
  const newest = decodeHead(texts[0]!)
  if (newest.versionsKey === undefined) return { ...newest, n: newest.n - 1 }
  throw new KvLayoutError(`zone ${zone}: head ${newest.n} names keys that cannot be read yet`)
}

/** Cold read through zone keys and head slots (today's fixed keys). */
async function coldReadSlots(
  io: ColdReadIo,
  name: string,
  zones: string[],
  startedAt: number
): Promise<Map<string, string | null> | null> {
  const keys: string[] = []
  for (const z of zones) keys.push(zoneKey(z), ...headKeys(z))
  const speculative: string[] = []
  if (!io.feed) for (const z of zones) speculative.push(...speculativeKeys(name, z))
  const withBuckets =
    speculative.length > 0 && keys.length + speculative.length <= SPECULATIVE_KEY_BUDGET
  const values = await io.read(withBuckets ? [...keys, ...speculative] : keys, SIGNAL_CACHE_TTL_S)
  for (const z of zones) {
    const raw = values.get(zoneKey(z)) ?? null
    const old = io.held.get(z)
    if (raw === null) {
      if (old) io.held.forget(old)
      io.markAbsent(z)
      continue
    }
    io.notAbsent(z)
    const id = decodeZoneMeta(raw).id
    let head: ZoneHead | null = null
    const texts: string[] = []
    for (const k of headKeys(z)) {
      const text = values.get(k)
      if (text !== null && text !== undefined && isHeadOf(text, id)) texts.push(text)
    }
    texts.sort((a, b) => headCounter(b) - headCounter(a))
    head = texts.length > 0 ? await newestReadable(io, z, texts) : headFromMeta(decodeZoneMeta(raw))
    const same =
      old &&
      old.head.meta.id === head.meta.id &&
      old.head.meta.layout?.buckets === head.meta.layout?.buckets
    if (old && same && old.head.n >= head.n) {
      old.confirmedAt = Math.max(old.confirmedAt, startedAt)
      continue
    }
    if (old) io.held.forget(old)
    io.add(z, head, raw, startedAt)
  }
  return withBuckets ? values : null
}
