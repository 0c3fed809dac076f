/**
 * @module Per-record build pass: the change log since the cursor → touched owner names (old and
 * new name of every change plus their ancestors up to the apex) → their current rows and
 * empty-non-terminal status from D1 (one round trip) → one KV put or delete per key → cursor.
 * Cost follows the number of touched names, not the zone size.
 *
 * Layout v2: the touched names are recomputed into the node mirror, then every bucket holding one
 * of them is reassembled from the mirror and written once (or deleted when empty).
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
 * Takes log rows in order while the touched keys fit in `keyBudget` (at least one change).
 * Layout v2: `keyOf` maps a name to its bucket, so the budget counts distinct buckets, and
 * `maxNames` bounds the names read from D1 in one pass.
 */
export function planPass(
  log: LogRow[],
  apex: string,
  keyBudget: number,
  keyOf: (name: string) => string | number = (n) => n,
  maxNames = Number.POSITIVE_INFINITY
): PassPlan {
  const plan: PassPlan = { upTo: 0, changes: 0, names: new Set(), meta: false, special: null }
  const keys = new Set<string | number>()
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
    const newKeys = new Set([...names].map(keyOf).filter((k) => !keys.has(k)))
    const cost = newKeys.size + (meta && !plan.meta ? 1 : 0)
    if (
      plan.changes > 0 &&
      (keys.size + (plan.meta ? 1 : 0) + cost > keyBudget || plan.names.size + names.size > maxNames)
    )
      break
    for (const k of newKeys) keys.add(k)
    for (const n of names) plan.names.add(n)
    plan.meta ||= meta
    plan.upTo = change.seq
    plan.changes++
  }
  return plan
}

export async function perRecordPass(ctx: StepContext): Promise<PerRecordOutcome> {
  const { io, state, limits } = ctx
  const started = io.now()
  const zoneId = state.zoneId!
  const { zone, log } = await readZoneAndLog(io.db, zoneId, state.cursor, limits.logChunk)
  if (!zone) return { kind: 'deleted' }
  if (state.zoneName !== zone.name) {
    state.zoneName = zone.name
    ctx.save()
  }
  if (log.length === 0) return { kind: 'idle' }

  const apex = zone.name
  const layout = state.layout
  if (!layout) return { kind: 'full' } // a layout-v1 zone: the first v2 build is a full one
  // A backlog larger than one pass and than a quarter of the zone (a bulk import or seed) is
  // cheaper as one full build than as passes that each reassemble most of the buckets.
  const backlog = zone.change_seq - state.cursor
  if (backlog > limits.passNames && backlog * 4 > ctx.mirror.count()) return { kind: 'full' }
  const plan = planPass(
    log,
    apex,
    Math.max(1, ctx.budget.remaining - 10),
    (n) => bucketOf(n, layout.buckets),
    limits.passNames
  )
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
  const ops: KeyOp[] = [...buckets].map((i) => ctx.mirror.bucketOp(apex, layout.buckets, i))
  if (plan.meta)
    ops.push({
      key: zoneKey(apex),
      value: encodeZoneMeta(zoneMetaFrom(zone, current.rows.get(apex) ?? [], layout)),
    })

  const written = await applyOps(io, ctx.ledger, ctx.budget, ops, {
    freshSince: 0,
    intervalMs: limits.keyWriteIntervalMs,
  })
  if (written.kind === 'deferred') return written

  state.cursor = plan.upTo
  state.builtAt = io.now()
  state.passes++
  state.lastPass = {
    kind: 'per-record',
    at: state.builtAt,
    ms: state.builtAt - started,
    changes: plan.changes,
    names: names.length,
    puts: written.puts,
    deletes: written.deletes,
    skipped: written.skipped,
  }
  // The zone outgrew its bucket count (twice the target names per bucket): a full build picks a
  // larger count and switches to it. Checked after every large pass and every 64th pass
  // (count(*) over the mirror costs about a millisecond per 100k names).
  if ((names.length >= 256 || state.passes % 64 === 0) && !state.fullRequested) {
    const count = ctx.mirror.count()
    if (count > 2 * limits.namesPerBucket * layout.buckets && layout.buckets < bucketCountFor(count, limits.namesPerBucket))
      state.fullRequested = true
  }
  ctx.save()
  return { kind: 'progress' }
}
