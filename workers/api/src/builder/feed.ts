/**
 * @module Announcing heads on the zone-change feed. A head is appended right after its
 * versioned key is written (its slot copy follows), and may be offered to watching isolates
 * before that (`offer`); a purge saves its `delete` entry as `state.feedPending` before appending it, and
 * deletes nothing until the append succeeded.
 *
 * The feed being down never stops the builder: a failed append leaves the entry pending and
 * sets a retry time (the failure backoff of the limits); until then later heads only replace the
 * pending entry with their own, newer one (the feed keeps the newest head per zone, and a reader
 * told of head n+1 never needs head n), and every step starts by retrying it once it is due.
 * Readers that cannot learn a head from the feed still find it through the head slots.
 * Appends are idempotent on (zone, id, n, op), so a retry after an append whose reply was lost
 * adds nothing.
 */
import { lookupName } from '@edgedns/dns-facts'
import type { FeedAppend, OfferedHead } from '@edgedns/zone-feed'
import type { StepContext } from './context.ts'
import { backoffMs } from './limits.ts'

/**
 * Announces a head just written to KV. Called before anything else is saved for the head: an
 * outgoing call waits until the object's earlier storage writes are durable, so saving first
 * would put that wait on the path of every change. Nothing is lost without a save before it: a
 * crash before the append leaves the head unrecorded in the builder's state, and the retry
 * publishes (and announces) the next counter. A failed append, or one not yet due after failures,
 * is kept as `feedPending` (replacing an older pending head) for the caller's next save.
 */
export async function announce(ctx: StepContext, entry: FeedAppend): Promise<void> {
  const { state, io } = ctx
  if (io.feed === null) return
  // A pending entry is saved with the builder's state: without the head text (readers of a late
  // entry read the head from KV).
  const { head: _head, ...pending } = entry
  if (state.feedFailures > 0 && io.now() < state.feedRetryAt) {
    state.feedPending = pending
    return
  }
  try {
    await io.feed.append([{ ...entry, zone: lookupName(entry.zone) }])
  } catch (e) {
    state.feedPending = pending
    state.feedFailures++
    state.feedRetryAt = io.now() + backoffMs(ctx.limits, state.feedFailures)
    console.warn('zone feed append failed; kept pending', pending, state.feedFailures, String(e))
    return
  }
  if (state.feedPending?.op === 'head') state.feedPending = null // a newer head supersedes it
  state.feedFailures = 0
  state.feedRetryAt = 0
}

/** Appends the pending entry if there is one; false when it is still pending afterwards. */
export async function appendPending(ctx: StepContext): Promise<boolean> {
  const { state, io } = ctx
  const entry = state.feedPending
  if (entry === null) return true
  if (io.feed === null) {
    // No feed bound (any more): nothing to tell.
    state.feedPending = null
    ctx.save()
    return true
  }
  try {
    // The feed keys zones by their normalised name, as every KV key does.
    await io.feed.append([{ ...entry, zone: lookupName(entry.zone) }])
  } catch (e) {
    state.feedFailures++
    state.feedRetryAt = io.now() + backoffMs(ctx.limits, state.feedFailures)
    ctx.save()
    console.warn('zone feed append failed; kept pending', entry, state.feedFailures, String(e))
    return false
  }
  // A newer entry may have replaced it while the call was out: keep that one.
  if (state.feedPending === entry) state.feedPending = null
  state.feedFailures = 0
  state.feedRetryAt = 0
  ctx.save()
  return state.feedPending === null
}

/** Whether a pending entry's retry is due at `now`. */
export function feedRetryDue(state: StepContext['state'], now: number): boolean {
  return state.feedPending !== null && (state.feedFailures === 0 || now >= state.feedRetryAt)
}

/**
 * Offers a head to the isolates watching the feed's primary before its versioned key is written
 * (`OfferedHead`). Returns when it was offered, or null when it was not (no feed, nobody watched
 * at the last append, or the call failed: the append that follows announces it anyway).
 */
export async function offer(ctx: StepContext, head: OfferedHead): Promise<number | null> {
  const feed = ctx.io.feed
  if (!feed?.offer) return null
  try {
    return (await feed.offer([{ ...head, zone: lookupName(head.zone) }])) ? ctx.io.now() : null
  } catch (e) {
    console.warn('zone feed offer failed; the append follows', head.zone, head.n, String(e))
    return null
  }
}
