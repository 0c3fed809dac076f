/**
 * @module Per-record build pass: the change log since the cursor → touched owner names (old and
 * new name of every change plus their ancestors up to the apex) → their current rows and
 * empty-non-terminal status from D1 (one round trip) → one KV put or delete per key → cursor.
 * Cost follows the number of touched names, not the zone size.
 */
import {
  ancestorsBetween,
  encodeNode,
  encodeZoneMeta,
  isInZone,
  nodeKey,
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

/** Takes log rows in order while the touched keys fit in `keyBudget` (at least one change). */
export function planPass(log: LogRow[], apex: string, keyBudget: number): PassPlan {
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
    const cost = names.size + (meta && !plan.meta ? 1 : 0)
    if (plan.changes > 0 && plan.names.size + (plan.meta ? 1 : 0) + cost > keyBudget) break
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
  const plan = planPass(log, apex, Math.max(1, ctx.budget.remaining - 10))
  if (plan.changes === 0 && plan.special) return { kind: plan.special }

  const names = [...plan.names]
  const current = await readNames(io.db, zoneId, plan.meta ? [...names, apex] : names)
  const ops: KeyOp[] = names.map((name) => {
    const rows = current.rows.get(name)
    if (rows) return { key: nodeKey(apex, name), value: encodeNode(nodeFromRows(rows)) }
    if (current.hasDescendants.has(name))
      return { key: nodeKey(apex, name), value: encodeNode(EMPTY_NODE) }
    return { key: nodeKey(apex, name), value: null }
  })
  if (plan.meta)
    ops.push({
      key: zoneKey(apex),
      value: encodeZoneMeta(zoneMetaFrom(zone, current.rows.get(apex) ?? [])),
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
    names: ops.length,
    puts: written.puts,
    deletes: written.deletes,
    skipped: written.skipped,
  }
  ctx.save()
  return { kind: 'progress' }
}
