/**
 * @module Writes the zone's next head slot: its metadata, the overlay (names changed but not yet
 * in their buckets) and which buckets were rewritten since the previous head. One KV write makes
 * a whole pass visible, however many buckets it touched; slots rotate, so passes are not held to
 * one write per key per second.
 */
import {
  encodeHead,
  encodeOverlay,
  HEAD_CHANGE_HISTORY,
  headKey,
  headSlot,
  OVERLAY_INLINE_MAX,
  overlayKey,
} from '@edgedns/kv-layout'
import type { StepContext, StepOutcome } from './context.ts'
import { ALWAYS, applyOps } from './writer.ts'

/** Above this many rewritten buckets a head says "all" (readers drop the zone's buckets). */
const MAX_LISTED = 1024

export interface PublishOptions {
  /** Every bucket changed (a full build): readers drop what they hold. */
  all?: boolean
}

/** `written` when the head is in KV, `deferred` when its slot was written too recently. */
export async function publishHead(
  ctx: StepContext,
  options: PublishOptions = {}
): Promise<StepOutcome | { kind: 'written' }> {
  const { state, io, limits } = ctx
  const zone = state.zoneName!
  const meta = state.head.meta
  if (meta === null) throw new Error(`zone ${zone}: no metadata to publish`)
  const n = state.head.n + 1
  const pending = [...new Set(state.headPending)].sort((a, b) => a - b)
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
  const overlay = ctx.mirror.overlayEntries()
  const encodedOverlay = encodeOverlay(overlay)
  let separate: string | undefined
  if (encodedOverlay.length > OVERLAY_INLINE_MAX) {
    // A large overlay goes to a key of its own, written before the head that names it.
    const key = overlayKey(zone, n)
    separate = key
    await applyOps(io, ctx.ledger, ctx.budget, [{ key, value: encodedOverlay }], {
      freshSince: ALWAYS,
      intervalMs: 0,
    })
    state.overlayKeys = [...(state.overlayKeys ?? []), { key, at: io.now() }]
    ctx.save()
  }
  const value = encodeHead({
    n,
    seq: state.cursor,
    meta,
    overlay: separate ? [] : overlay,
    changed,
    ...(separate ? { overlayKey: separate } : {}),
  })
  const written = await applyOps(io, ctx.ledger, ctx.budget, [{ key: slot, value }], {
    freshSince: Number.POSITIVE_INFINITY,
    intervalMs: limits.keyWriteIntervalMs,
  })
  if (written.kind === 'deferred') return written
  ctx.mirror.dropFlushed()
  state.head = { n, meta, changed }
  state.headPending = []
  ctx.save()
  return { kind: 'written' }
}
