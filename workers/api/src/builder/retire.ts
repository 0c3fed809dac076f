/**
 * @module Layout v2 generation retirement: after a full build switched the zone to a new bucket
 * count, the old count's bucket keys stay readable for `retireGraceMs` (readers may hold the old
 * meta in their isolate cache, and KV propagates the new meta in up to ~60 s), then every one of
 * them is deleted. Bucket keys are enumerable (0..B-1), so no KV list is needed.
 */
import { bucketKey } from '@edgedns/kv-layout'
import type { StepContext, StepOutcome } from './context.ts'
import { ALWAYS, applyOps, type KeyOp } from './writer.ts'

/** Deletes what is due; `deferred` until the next retirement when none is due yet. */
export async function retireStep(ctx: StepContext): Promise<StepOutcome> {
  const { state, io } = ctx
  const now = io.now()
  const live = state.layout?.buckets
  for (const r of state.retire) {
    if (r.notBefore > now) continue
    if (r.buckets !== live) {
      const room = Math.min(500, ctx.budget.remaining - 2)
      if (room < 1) return { kind: 'progress' }
      const end = Math.min(r.buckets, r.next + room)
      const ops: KeyOp[] = []
      for (let i = r.next; i < end; i++)
        ops.push({ key: bucketKey(state.zoneName!, r.buckets, i), value: null })
      await applyOps(io, ctx.ledger, ctx.budget, ops, { freshSince: ALWAYS, intervalMs: 0 })
      r.next = end
      if (r.next < r.buckets) {
        ctx.save()
        return { kind: 'progress' }
      }
    }
    state.retire = state.retire.filter((x) => x !== r)
    state.metaRefresh = true // heads stop offering the retired count as a fallback
    ctx.save()
    return { kind: 'progress' }
  }
  if (state.retire.length === 0) return { kind: 'idle' }
  return { kind: 'deferred', until: Math.min(...state.retire.map((r) => r.notBefore)) }
}
