/**
 * @module Per-record build pass: the change log since the cursor → touched owner names (old and
 * new name of every change plus their ancestors up to the apex) → their current rows and
 * empty-non-terminal status from D1 (one round trip) → one KV put or delete per key → cursor.
 * Cost follows the number of touched names, not the zone size.
 *
 * Layout v2: the touched names are recomputed into the node mirror and every bucket holding one
 * of them is marked dirty, in one synchronous storage transaction; then the dirty buckets are
 * reassembled from the mirror and written, as many per invocation as the KV budget allows, each
 * once (or deleted when empty). The cursor moves when the last one is written.
 */
import {
  ancestorsBetween,
  bucketOf,
  encodeNode,
  encodeZoneMeta,
  isInZone,
  bucketCountFor,
  zoneKey,
} from '@edgedns/kv-layout'
import type { StepContext, StepOutcome } from './context.ts'
import { readNames, readZoneAndLog, type LogRow } from './queries.ts'
import { EMPTY_NODE, nodeFromRows, zoneMetaFrom } from './values.ts'
import { applyOps, type KeyOp } from './writer.ts'

/** Besides the usual outcomes, the log can ask for a full build or a purge. */
export type PerRecordOutcome = StepOutcome | { kind: 'full' } | { kind: 'deleted' }

interface PassPlan {
  upTo: number
  changes: number
  names: Set<string>
  meta: boolean
  special: 'full' | 'deleted' | null
}

/**
 * Takes log rows in order while the touched names fit in `maxNames` (at least one change). The
 * KV budget does not bound a pass: its buckets are written over as many invocations as they need.
 */
export function planPass(log: LogRow[], apex: string, maxNames: number): PassPlan {
  const plan: PassPlan = { upTo: 0, changes: 0, names: new Set(), meta: false, special: null }
  for (const change of log) {
    if (change.op === 'full') return { ...plan, special: 'full' }
    if (change.op === 'zone_delete') return { ...plan, special: 'deleted' }
    const names = new Set<string>()
    let meta = change.op === 'zone'
    for (const name of [change.old_name, change.new_name]) {
      if (name === null || !isInZone(name, apex)) continue
      if (name === apex) meta = true
      else
        for (const n of [name, ...ancestorsBetween(name, apex)])
          if (!plan.names.has(n)) names.add(n)
    }
    if (plan.changes > 0 && plan.names.size + names.size > maxNames) break
    for (const n of names) plan.names.add(n)
    plan.meta ||= meta
    plan.upTo = change.seq
    plan.changes++
  }
  return plan
}

export async function perRecordPass(ctx: StepContext): Promise<PerRecordOutcome> {
  const { io, state, limits } = ctx
  const pending = state.flush
  // Once a pass has started writing its buckets it finishes before the next pass begins, so the
  // cursor keeps moving under a steady stream of changes. A pass that has written nothing yet
  // (its keys were written too recently) takes in the changes made meanwhile: they coalesce.
  if (pending && (pending.puts + pending.deletes + pending.skipped > 0 || pending.names >= limits.passNames)) return flushBuckets(ctx)
  const started = pending?.startedAt ?? io.now()
  const zoneId = state.zoneId!
  const { zone, log } = await readZoneAndLog(io.db, zoneId, pending?.upTo ?? state.cursor, limits.logChunk)
  if (!zone) return { kind: 'deleted' }
  if (state.zoneName !== zone.name) {
    state.zoneName = zone.name
    ctx.save()
  }
  if (log.length === 0) return pending ? flushBuckets(ctx) : { kind: 'idle' }

  const apex = zone.name
  const layout = state.layout
  if (!layout) return { kind: 'full' } // a layout-v1 zone: the first v2 build is a full one
  // A backlog larger than one pass and than a quarter of the zone (a bulk import or seed) is
  // cheaper as one full build than as passes that each reassemble most of the buckets.
  const backlog = zone.change_seq - state.cursor
  if (backlog > limits.passNames && backlog * 4 > ctx.mirror.count()) return { kind: 'full' }
  const plan = planPass(log, apex, limits.passNames - (pending?.names ?? 0))
  if (plan.changes === 0 && plan.special) return { kind: plan.special }

  const names = [...plan.names]
  const current = await readNames(io.db, zoneId, plan.meta ? [...names, apex] : names)
  const buckets = new Set<number>()
  for (const name of names) {
    const rows = current.rows.get(name)
    const value = rows
      ? encodeNode(nodeFromRows(rows))
      : current.hasDescendants.has(name)
        ? encodeNode(EMPTY_NODE)
        : null
    ctx.mirror.set(name, value)
    buckets.add(bucketOf(name, layout.buckets))
  }
  ctx.mirror.markDirty(buckets)
  state.flush = {
    upTo: plan.upTo,
    changes: (pending?.changes ?? 0) + plan.changes,
    names: (pending?.names ?? 0) + names.length,
    startedAt: started,
    meta: plan.meta ? encodeZoneMeta(zoneMetaFrom(zone, current.rows.get(apex) ?? [], layout)) : (pending?.meta ?? null),
    puts: 0,
    deletes: 0,
    skipped: 0,
  }
  ctx.save() // mirror rows, dirty set and flush state commit together (no await since readNames)
  return flushBuckets(ctx)
}

/** Writes as many dirty buckets as the budget allows; the last write moves the cursor. */
async function flushBuckets(ctx: StepContext): Promise<PerRecordOutcome> {
  const { io, state, limits } = ctx
  const flush = state.flush!
  const layout = state.layout!
  const apex = state.zoneName!
  const room = Math.max(1, ctx.budget.remaining - 10) - (flush.meta === null ? 0 : 1)
  const take = ctx.mirror.dirty(Math.max(0, room))
  const ops: KeyOp[] = take.map((i) => ctx.mirror.bucketOp(apex, layout.buckets, i))
  if (flush.meta !== null) ops.push({ key: zoneKey(apex), value: flush.meta })

  const written = await applyOps(io, ctx.ledger, ctx.budget, ops, {
    freshSince: 0,
    intervalMs: limits.keyWriteIntervalMs,
  })
  if (written.kind === 'deferred') return written
  ctx.mirror.markClean(take)
  flush.meta = null
  flush.puts += written.puts
  flush.deletes += written.deletes
  flush.skipped += written.skipped
  if (ctx.mirror.dirtyCount() > 0) {
    ctx.save()
    return { kind: 'progress' }
  }

  state.cursor = flush.upTo
  state.builtAt = io.now()
  state.passes++
  state.lastPass = {
    kind: 'per-record',
    at: state.builtAt,
    ms: state.builtAt - flush.startedAt,
    changes: flush.changes,
    names: flush.names,
    puts: flush.puts,
    deletes: flush.deletes,
    skipped: flush.skipped,
  }
  state.flush = null
  // The zone outgrew its bucket count (twice the target names per bucket): a full build picks a
  // larger count and switches to it. Checked after every large pass and every 64th pass
  // (count(*) over the mirror costs about a millisecond per 100k names).
  if ((state.lastPass.names >= 256 || state.passes % 64 === 0) && !state.fullRequested) {
    const count = ctx.mirror.count()
    if (count > 2 * limits.namesPerBucket * layout.buckets && layout.buckets < bucketCountFor(count, limits.namesPerBucket))
      state.fullRequested = true
  }
  ctx.save()
  return { kind: 'progress' }
}
