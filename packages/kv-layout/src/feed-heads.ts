/**
 * @module What a zone view does with the zone-change feed's news: a poll's entries update the
 * held zones (a newer head to take, a zone to forget). A head the entry carries is taken from it;
 * the others are read under their versioned keys (a poll's in one bulk get, in the background).
 */
import type { FeedChange, KeepAlive } from '@edgedns/zone-feed'
import type { AbsentNames } from './absent-names.ts'
import { decodeHead, headVersionKey, isHeadOf } from './head.ts'
import type { HeldZones } from './held-zones.ts'
import { IMMUTABLE_CACHE_TTL_S } from './kv-reads.ts'
import type { ZoneEntry } from './zone-entry.ts'
import { inBackground } from './zone-reads-in-flight.ts'
import type { ZoneHead } from './types.ts'

/** The view's side. */
export interface FeedHeadsIo {
  read(keys: string[], cacheTtl?: number): Promise<Map<string, string | null>>
  held: HeldZones
  absent: AbsentNames
  /** The head with its overlay read when it lives in a key of its own; null while that key is not visible. */
  withOverlay(head: ZoneHead, cacheTtl?: number): Promise<ZoneHead | null>
  now(): number
}

/**
 * What a poll told: held zones it names with a newer head take that head, from the entry when it
 * carries the head's text, else read (one bulk get for all of them, in the background); a delete entry or another zone id forgets the zone; a resync
 * forgets every zone. Heads offered to a watch are taken from their text by the held zones they
 * are newer for. Names it mentions, and every name after an index change, are no longer
 * known absent.
 */
export function takeFeedChange(io: FeedHeadsIo, change: FeedChange): void {
  if (change.resync) {
    io.held.clear(true)
    io.absent.clear()
  }
  if (change.indexChanged) io.absent.clear()
  const named: ZoneEntry[] = []
  const carried: { entry: ZoneEntry; n: number; text: string; offered?: boolean }[] = []
  for (const e of change.entries) {
    io.absent.delete(e.zone)
    io.held.heard(e.zone, e)
    const held = io.held.get(e.zone)
    if (!held) continue
    if (e.op === 'delete' || e.id !== held.head.meta.id) {
      io.held.forget(held)
      continue
    }
    if (e.n > held.target) held.target = e.n
    if (held.target <= held.head.n || held.refresh) continue
    // The entry carries the head it names: taken without a KV read.
    if (e.head !== undefined && e.n === held.target)
      carried.push({ entry: held, n: e.n, text: e.head })
    else named.push(held)
  }
  if (!change.keepAlive) return
  // Offered heads (not yet in KV under their versioned keys): taken from their text for held
  // zones only, without moving the zone's target (nor what an evicted zone is remembered by), so
  // no read of the versioned key follows.
  for (const o of change.offered ?? []) {
    const held = io.held.get(o.zone)
    if (!held || held.refresh || o.id !== held.head.meta.id || o.n <= held.head.n) continue
    if (carried.some((c) => c.entry === held && c.n >= o.n)) continue
    carried.push({ entry: held, n: o.n, text: o.head, offered: true })
  }
  for (const { entry, n, text, offered } of carried)
    inBackground(entry, takeNamed(io, entry, n, text, offered), io.now(), change.keepAlive)
  if (named.length > 0) prefetch(io, named, change.keepAlive)
}

/** Reads the heads a poll named for held zones, in one bulk get, each zone's shared read. */
function prefetch(io: FeedHeadsIo, entries: ZoneEntry[], keepAlive: KeepAlive): void {
  const startedAt = io.now()
  const wanted = entries.map((e) => ({ entry: e, n: e.target }))
  const values = io.read(
    wanted.map((w) => headVersionKey(w.entry.name, w.entry.head.meta.id, w.n)),
    IMMUTABLE_CACHE_TTL_S
  )
  for (const { entry, n } of wanted) {
    const key = headVersionKey(entry.name, entry.head.meta.id, n)
    const own = values.then((v) => takeNamed(io, entry, n, v.get(key) ?? null))
    inBackground(entry, own, startedAt, keepAlive)
  }
}

/** Reads the head the feed named for a held zone (one key, plus its overlay key if any). */
export async function readNamed(io: FeedHeadsIo, entry: ZoneEntry): Promise<ZoneEntry | null> {
  const n = entry.target
  const key = headVersionKey(entry.name, entry.head.meta.id, n)
  const text = (await io.read([key], IMMUTABLE_CACHE_TTL_S)).get(key) ?? null
  return takeNamed(io, entry, n, text)
}

/**
 * Takes head n the feed named (or, `offered`, a builder offered) for a held zone. Not there (it
 * expired): left to the slot path. Another zone's head: the zone is forgotten.
 */
async function takeNamed(
  io: FeedHeadsIo,
  entry: ZoneEntry,
  n: number,
  text: string | null,
  offered = false
): Promise<ZoneEntry | null> {
  if (entry.gone) return null
  if (text === null || n <= entry.head.n) return entry
  if (!isHeadOf(text, entry.head.meta.id)) {
    io.held.forget(entry)
    return null
  }
  const head = await io.withOverlay(decodeHead(text), IMMUTABLE_CACHE_TTL_S)
  if (entry.gone) return null
  if (head && head.n > entry.head.n) io.held.apply(entry, head, entry.raw ?? '', offered)
  return entry
}
