/**
 * @module Retiring an earlier bucket count: after a full build switched the zone to a new count,
 * the keys the previous head named (their versions, or the unversioned keys of layout format 3)
 * wait in the retirement queue (`versions.ts`) for `retireGraceMs` — readers may hold the old meta
 * or head meanwhile — and are then deleted. While a count is retiring, heads offer it to readers
 * as a fallback (`layout.prev`); once its keys are gone they stop.
 */
import { bucketKey } from '@edgedns/kv-layout'
import type { StepContext, StepOutcome } from './context.ts'
import { ALWAYS, applyOps } from './writer.ts'

/** Deletes what is due; `deferred` until the next retirement when none is due yet. */
export async function retireStep(ctx: StepContext): Promise<StepOutcome> {
  const { state, io } = ctx
  const now = io.now()
  for (const r of state.retire) {
    if (r.queued) continue
    // Recorded before the queue existed: its keys are the unversioned ones from `next` on.
    const keys = Array.from({ length: Math.max(0, r.buckets - r.next) }, (_, k) =>
      bucketKey(state.zoneName!, r.buckets, r.next + k)
    )
    ctx.versions.retire(keys, r.notBefore, r.buckets)
    r.queued = true
    ctx.save()
  }
  for (const r of state.retire) {
    if (r.notBefore > now) continue
    const room = Math.min(500, ctx.budget.remaining - 2)
    if (room < 1) return { kind: 'progress' }
    const keys = ctx.versions.due(now, room, r.buckets)
    if (keys.length > 0) {
      await applyOps(
        io,
        ctx.ledger,
        ctx.budget,
        keys.map((key) => ({ key, value: null })),
        { freshSince: ALWAYS, intervalMs: 0 }
      )
      ctx.versions.deleted(keys)
      ctx.save()
      return { kind: 'progress' }
    }
    if (ctx.versions.pending(r.buckets) > 0) continue // queued later than the switch: not due yet
    state.retire = state.retire.filter((x) => x !== r)
    state.metaRefresh = true // heads stop offering the retired count as a fallback
    ctx.save()
    return { kind: 'progress' }
  }
  if (state.retire.length === 0) return { kind: 'idle' }
  const waits = state.retire.map((r) => r.notBefore).filter((t) => t > now)
  const until = Math.min(...waits, ctx.versions.nextDue() ?? Number.POSITIVE_INFINITY)
  return Number.isFinite(until) && until > now ? { kind: 'deferred', until } : { kind: 'progress' }
}
