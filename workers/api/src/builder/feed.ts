/**
 * @module Announcing heads on the zone-change feed. After a head (or, for a purge, before its
 * deletes) the entry is saved as `state.feedPending`, then appended; a success clears it.
 *
 * The feed being down never stops the builder: a failed append leaves the entry pending and
 * sets a retry time (the failure backoff of the limits); until then later heads only replace the
 * pending entry with their own, newer one (the feed keeps the newest head per zone, and a reader
 * told of head n+1 never needs head n), and every step starts by retrying it once it is due.
 * Readers that cannot learn a head from the feed still find it through the head slots.
 * Appends are idempotent on (zone, id, n, op), so a retry after an append whose reply was lost
 * adds nothing.
 */
import { normalizeName } from '@edgedns/kv-layout'
import type { FeedAppend } from '@edgedns/zone-feed'
import type { StepContext } from './context.ts'
import { backoffMs } from './limits.ts'

/** Records `entry` as the one to announce (replacing an older pending one) and tries it if due. */
export async function announce(ctx: StepContext, entry: FeedAppend): Promise<void> {
  const { state } = ctx
  if (ctx.io.feed === null) return
  state.feedPending = entry
  ctx.save()
  if (state.feedFailures === 0 || ctx.io.now() >= state.feedRetryAt) await appendPending(ctx)
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
    await io.feed.append([{ ...entry, zone: normalizeName(entry.zone) }])
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
