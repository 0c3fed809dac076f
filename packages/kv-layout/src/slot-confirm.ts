/**
 * @module How a view confirms a zone it holds through the zone's own keys (without the feed, or
 * while the feed cannot be reached): once the zone's heads have lapped their slots, the one slot
 * the next head goes to; before that, or when that slot is out of step, the zone key and the head
 * slots. A newer head is applied; a zone key that disappeared drops the zone; a zone key or head
 * of another zone id (deleted, created again) is never taken.
 */
import { decodeZoneMeta } from './codec.ts'
import {
  decodeHead,
  headCounter,
  headFromMeta,
  headKey,
  headKeys,
  HEAD_SLOTS,
  headSlot,
  isHeadOf,
} from './head.ts'
import { zoneKey } from './keys.ts'
import type { ZoneHead } from './types.ts'

/** What the view holds of a zone, as far as confirming it goes. */
export interface SlotHeld {
  name: string
  head: ZoneHead
  /** Raw zone key value last read while the zone has no head (absent or undefined otherwise). */
  raw?: string | undefined
  gone: boolean
  /** Start time of the read that last confirmed the zone. */
  confirmedAt: number
}

/** The view's side: its reads (one round trip, the signal's cache time) and what it does with a result. */
export interface SlotConfirmIo<E extends SlotHeld> {
  read(keys: string[]): Promise<Map<string, string | null>>
  /** The head with its overlay read when it lives in a key of its own; null while that key is not visible. */
  withOverlay(head: ZoneHead): Promise<ZoneHead | null>
  apply(entry: E, head: ZoneHead, raw: string): void
  forget(entry: E): void
  markAbsent(zone: string): void
}

/** Confirms `entry` by its keys; the entry, or null when it is gone. */
export async function confirmBySlots<E extends SlotHeld>(
  entry: E,
  startedAt: number,
  io: SlotConfirmIo<E>
): Promise<E | null> {
  if (entry.head.n >= HEAD_SLOTS) {
    const settled = await confirmByNextSlot(entry, startedAt, io)
    if (settled !== undefined) return settled
  }
  const z = entry.name
  const id = entry.head.meta.id
  const n = entry.head.n
  const next =
    n > 0 && n < HEAD_SLOTS
      ? [headKey(z, headSlot(n + 1)), headKey(z, headSlot(n + 2))]
      : headKeys(z)
  let values = await io.read([zoneKey(z), ...next])
  const raw = values.get(zoneKey(z)) ?? null
  if (raw === null) {
    io.forget(entry)
    io.markAbsent(z)
    return null
  }
  if (raw !== entry.raw && decodeZoneMeta(raw).id !== entry.head.meta.id) {
    // Another zone of the same name (deleted and created again): its heads count from 1.
    io.forget(entry)
    return null
  }
  if (n > 0 && n < HEAD_SLOTS) {
    const c1 = headCounter(values.get(next[0]!) ?? '')
    const c2 = headCounter(values.get(next[1]!) ?? '')
    // Two or more heads since ours (or a slot lapped): the newest may be in any slot.
    if (c1 > n + 1 || c2 >= n + 2) values = await io.read(headKeys(z))
  }
  let newest = -1
  let newestText = ''
  for (const [key, text] of values) {
    if (text === null || key === zoneKey(z) || !isHeadOf(text, id)) continue
    const c = headCounter(text)
    if (c > newest) {
      newest = c
      newestText = text
    }
  }
  if (entry.gone) return null
  if (newest > entry.head.n) {
    // A head whose overlay key is not visible here yet is taken on a later confirmation.
    const head = await io.withOverlay(decodeHead(newestText))
    if (entry.gone) return null
    if (head && head.n > entry.head.n) io.apply(entry, head, raw)
  } else if (entry.head.n === 0 && raw !== entry.raw)
    io.apply(entry, headFromMeta(decodeZoneMeta(raw)), raw)
  entry.confirmedAt = Math.max(entry.confirmedAt, startedAt)
  return entry
}

/**
 * Confirms a zone that has lapped its head slots (n ≥ HEAD_SLOTS) by reading one key: the slot
 * head n+1 goes to. While nothing is new it still holds this zone's head n+1−HEAD_SLOTS; when it
 * holds head n+1, that head is taken and the slot after it is read the same way, since heads are
 * written in order. Anything else (an empty slot: the zone's keys were purged, or a zone of the
 * same name was created again; another zone's head; a counter out of step; a head whose overlay
 * key cannot be read) is left to the full read of the zone key and every slot: undefined. The
 * zone key need not be read while the slots are in step, because a zone's metadata reaches
 * readers through its heads once it has one.
 */
async function confirmByNextSlot<E extends SlotHeld>(
  entry: E,
  startedAt: number,
  io: SlotConfirmIo<E>
): Promise<E | null | undefined> {
  const z = entry.name
  const id = entry.head.meta.id
  for (;;) {
    const n = entry.head.n
    const key = headKey(z, headSlot(n + 1))
    const text = (await io.read([key])).get(key) ?? null
    if (entry.gone) return null
    if (text === null || !isHeadOf(text, id)) return undefined
    const c = headCounter(text)
    if (c === n + 1 - HEAD_SLOTS) break
    if (c !== n + 1) return undefined
    // Its overlay key not visible (not yet, or deleted after a newer head flushed it): the full
    // read takes the newest head, or leaves this one to a later confirmation.
    const head = await io.withOverlay(decodeHead(text))
    if (entry.gone) return null
    if (!head || head.meta.id !== id) return undefined
    io.apply(entry, head, entry.raw ?? '')
  }
  entry.confirmedAt = Math.max(entry.confirmedAt, startedAt)
  return entry
}
