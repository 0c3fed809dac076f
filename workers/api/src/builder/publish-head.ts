/**
 * @module Writes the zone's next head: its metadata, the overlay (names changed but not yet in
 * their buckets), which buckets were rewritten since the previous head and the version of every
 * bucket (`bv`, or a versions table and the versions changed since: `versions-table.ts`). The head
 * goes to its own versioned key (`headVersionKey`, written once, expiring), is announced on the
 * zone-change feed, then goes to the rotating slot (read by readers that do not learn heads from
 * the feed): every key the head names (overlay key, versions table, bucket versions) is in KV
 * before the head, and the versioned head before the feed entry that names it. One head makes a
 * whole pass visible, however many buckets it touched; slots rotate, so passes are not held to
 * one write per key per second. Where isolates watch the feed's primary (locally), a small head
 * is offered to them before its versioned key is written: they take its text, and nothing of
 * theirs reads that key because of the offer.
 */
import {
  encodeHead,
  encodeOverlay,
  HEAD_CHANGE_HISTORY,
  headKey,
  headSlot,
  headVersionKey,
  OVERLAY_INLINE_MAX,
  overlayKey,
} from '@edgedns/kv-layout'
import { FEED_HEAD_MAX_CHARS } from '@edgedns/zone-feed'
import type { StepContext, StepOutcome } from './context.ts'
import { announce, offer } from './feed.ts'
import type { BuilderState } from './state.ts'
import { writeHeadSlots } from './head-slots.ts'
import { headVersions } from './versions-table.ts'
import { ALWAYS, applyOps } from './writer.ts'

/** Above this many rewritten buckets a head says "all" (readers drop the zone's buckets). */
const MAX_LISTED = 1024

/** How long a versioned head key lives (seconds): far beyond any reader's use of it. */
const HEAD_VERSION_TTL_S = 2 * 24 * 3600

/**
 * Counter of the next head: after the last head written, and after any head whose write was
 * started without being confirmed (it may be in KV: its key is never written again). Bucket
 * versions written before that head carry this counter.
 */
export function nextHead(state: BuilderState): number {
  return Math.max(state.head.n, state.headAttempt) + 1
}

export interface PublishOptions {
  /**
   * Every bucket changed (a full build, which wrote every bucket at `layout.base`, the counter of
   * this head): readers drop what they hold.
   */
  all?: boolean
  /** Runs once the head is in KV, in the same synchronous stretch as the state that records it. */
  onWritten?: () => void
  /**
   * Awaited once the head is announced, before the rest of its writes (a per-record pass arms the
   * safety alarm here and, locally, leaves the runtime's thread to the readers). With this option
   * a head that fits an entry is first offered to the isolates watching the feed's primary, and
   * this runs right after the offer (then come the versioned put and the append); otherwise right
   * after the append.
   */
  afterAnnounce?: (() => Promise<void>) | undefined
}

/**
 * The head just written names overlay key `key` (null: none): the one the previous head named, if
 * another, starts its grace period now.
 */
function nameOverlay(state: BuilderState, key: string | null, now: number): void {
  const previous = state.namedOverlay ?? null
  state.namedOverlay = key
  if (previous === null || previous === key) return
  state.overlayKeys = state.overlayKeys.map((o) => (o.key === previous ? { ...o, at: now } : o))
}

/** `written` when the head is in KV, `deferred` when its slot was written too recently. */
export async function publishHead(
  ctx: StepContext,
  options: PublishOptions = {}
): Promise<StepOutcome | { kind: 'written'; kvMs: number; appendMs: number; announcedAt: number }> {
  const { state, io, limits } = ctx
  const zone = state.zoneName!
  const meta = state.head.meta
  if (meta === null) throw new Error(`zone ${zone}: no metadata to publish`)
  const n = nextHead(state)
  const layout = state.layout
  // Bucket writes since the last head (versions below n when a head attempt was lost).
  const written = options.all ? new Map<number, number>() : ctx.versions.completed()
  const pending = [...written.keys()]
  const changes: number[] | 'all' = options.all || pending.length > MAX_LISTED ? 'all' : pending
  const changed = [...state.head.changed, [n, changes] as [number, number[] | 'all']].slice(
    -HEAD_CHANGE_HISTORY
  )
  // Keep the history small: a reader further behind than it reaches drops the zone's buckets.
  while (
    changed.length > 1 &&
    changed.reduce((sum, [, b]) => sum + (b === 'all' ? 1 : b.length), 0) > MAX_LISTED
  )
    changed.shift()
  const slot = headKey(zone, headSlot(n))
  // A slot written less than an interval ago defers the head; find out before writing anything
  // else for it (an overlay key written now would be written again when the head is retried).
  const last = ctx.ledger.lookup([slot]).get(slot)?.writtenAt ?? 0
  if (last > 0 && last + limits.keyWriteIntervalMs > io.now())
    return { kind: 'deferred', until: last + limits.keyWriteIntervalMs }
  // From here on, head n may reach KV: a retry after a failure takes the next counter.
  state.headAttempt = n
  ctx.save()
  const overlay = ctx.mirror.overlayEntries()
  const encodedOverlay = encodeOverlay(overlay)
  let separate: string | undefined
  if (encodedOverlay.length > OVERLAY_INLINE_MAX) {
    // A large overlay goes to a key of its own, written before the head that names it.
    const key = overlayKey(zone, state.zoneId!, n)
    separate = key
    await applyOps(io, ctx.ledger, ctx.budget, [{ key, value: encodedOverlay }], {
      freshSince: ALWAYS,
      intervalMs: 0,
    })
    state.overlayKeys = [...(state.overlayKeys ?? []), { key, at: io.now() }]
    ctx.save()
  }
  const named =
    layout?.base === undefined
      ? undefined
      : options.all
        ? { base: layout.base, changed: new Map<number, number>() }
        : ctx.versions.named(layout.base)
  if (named) for (const [i, v] of written) named.changed.set(i, v)
  if (options.all && layout?.base !== undefined && layout.base > n)
    throw new Error(`zone ${zone}: head ${n} cannot name bucket version ${layout.base}`)
  const versions = named ? await headVersions(ctx, n, named, options.all === true) : undefined
  const value = encodeHead({
    n,
    seq: state.cursor,
    meta,
    overlay: separate ? [] : overlay,
    changed,
    ...(separate ? { overlayKey: separate } : {}),
    ...(versions ? { bv: versions.bv } : {}),
    ...(versions?.versionsKey !== undefined ? { versionsKey: versions.versionsKey } : {}),
  })
  // The slot's ledger entry is marked pending now, with the head attempt, and completed only
  // after the slot's put: a storage write between the versioned put and the append would hold
  // the append until it is durable (the output gate).
  ctx.ledger.markPending([slot])
  ctx.budget.spend(2)
  const fits = value.length <= FEED_HEAD_MAX_CHARS
  // Isolates watching the primary take a small head from its offer, a KV write sooner; the
  // offer names no key that is not written yet (`OfferedHead`).
  const offeredAt =
    fits && options.afterAnnounce
      ? await offer(ctx, { zone, id: state.zoneId!, n, head: value })
      : null
  if (offeredAt !== null) await options.afterAnnounce?.()
  const putAt = io.now()
  // A failed put is not announced: the step fails and its retry publishes the next counter.
  await io.kv.put(headVersionKey(zone, state.zoneId!, n), value, {
    expirationTtl: HEAD_VERSION_TTL_S,
  })
  const appendAt = io.now()
  // A small head rides its entry: isolates holding the zone take it without a KV read.
  await announce(ctx, { zone, id: state.zoneId!, n, op: 'head', ...(fits ? { head: value } : {}) })
  const appended = io.now()
  if (offeredAt === null) await options.afterAnnounce?.()
  // The slot (and any a failed attempt skipped), for readers that do not learn heads from the
  // feed. A slot that cannot be written fails the step: its retry publishes the next counter to
  // the versioned key, this slot and its own.
  await writeHeadSlots(ctx, zone, n, value)
  // One synchronous stretch: the head, the versions it names and the superseded ones queued.
  ctx.mirror.dropFlushed()
  if (layout && !options.all)
    ctx.versions.headWritten(
      zone,
      state.zoneId!,
      layout.buckets,
      layout.base ?? null,
      io.now() + limits.retireGraceMs
    )
  versions?.record()
  nameOverlay(state, separate ?? null, io.now())
  options.onWritten?.()
  state.head = { n, meta, changed }
  state.headAttempt = 0
  ctx.save()
  return {
    kind: 'written',
    kvMs: appendAt - putAt,
    appendMs: appended - appendAt,
    announcedAt: offeredAt ?? appended,
  }
}
