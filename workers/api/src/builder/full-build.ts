/**
 * @module Full build, resumable across invocations: the meta key, then every owner name of the
 * zone in name_rev pages (nodes and the empty non-terminals above them), then a sweep of the
 * zone's KV prefix deleting keys D1 no longer backs. The cursor moves to the sequence committed
 * when the build started; changes made during the build are replayed by per-record passes after.
 */
import {
  ancestorsBetween,
  encodeNode,
  encodeZoneMeta,
  isInZone,
  nodeKey,
  zoneKey,
} from '@edgedns/kv-layout'
import { reverseName } from '../records/model.ts'
import type { StepContext, StepOutcome } from './context.ts'
import { liveNames, namesWithRecords, readNames, readPage, readZone } from './queries.ts'
import type { FullProgress } from './state.ts'
import { EMPTY_NODE, nodeFromRows, zoneMetaFrom } from './values.ts'
import { applyOps, type KeyOp } from './writer.ts'

export type FullOutcome = StepOutcome | { kind: 'deleted' }

export async function fullBuildStep(ctx: StepContext): Promise<FullOutcome> {
  const { state } = ctx
  if (!state.full) {
    const zone = await readZone(ctx.io.db, state.zoneId!)
    if (!zone) return { kind: 'deleted' }
    state.zoneName = zone.name
    state.full = {
      startSeq: zone.change_seq,
      startedAt: ctx.io.now(),
      phase: 'write',
      afterRev: '',
      ents: [],
      listCursor: null,
      keysWritten: 0,
      keysDeleted: 0,
    }
    state.fullRequested = false
    ctx.save()
  }
  const progress = state.full
  return progress.phase === 'write' ? writePages(ctx, progress) : sweepPages(ctx, progress)
}

/** Writes pages of names while the budget lasts. */
async function writePages(ctx: StepContext, p: FullProgress): Promise<FullOutcome> {
  const { io, limits, state } = ctx
  const zoneId = state.zoneId!
  const apex = state.zoneName!
  const apexRev = reverseName(apex)
  for (;;) {
    if (ctx.budget.used > 0 && ctx.budget.remaining < limits.pageNames + 10)
      return { kind: 'progress' }
    const ops: KeyOp[] = []
    if (p.afterRev === '') {
      // First page: the meta key (settings and apex node) as of now.
      const zone = await readZone(io.db, zoneId)
      if (!zone) return { kind: 'deleted' }
      const apexRows = (await readNames(io.db, zoneId, [apex])).rows.get(apex) ?? []
      ops.push({ key: zoneKey(apex), value: encodeZoneMeta(zoneMetaFrom(zone, apexRows)) })
    }
    const page = await readPage(io.db, zoneId, apexRev, p.afterRev, limits.pageNames)
    const inPage = new Set(page.names.map((n) => n.name))
    const ancestors = new Set<string>()
    for (const { name } of page.names)
      for (const a of ancestorsBetween(name, apex)) ancestors.add(a)
    const unknown = [...ancestors].filter((a) => !inPage.has(a) && !p.ents.includes(a))
    const withRecords = await namesWithRecords(io.db, zoneId, unknown)

    let ents = p.ents
    for (const { name, rows } of page.names) {
      ents = ents.filter((e) => e !== name && isInZone(name, e))
      for (const a of ancestorsBetween(name, apex)) {
        if (inPage.has(a) || withRecords.has(a) || ents.includes(a)) continue
        ops.push({ key: nodeKey(apex, a), value: encodeNode(EMPTY_NODE) })
        ents.push(a)
      }
      ops.push({ key: nodeKey(apex, name), value: encodeNode(nodeFromRows(rows)) })
    }
    // A page that does not fit waits for a fresh invocation (a fresh one takes it whatever its size).
    if (ctx.budget.used > 0 && ops.length > ctx.budget.remaining) return { kind: 'progress' }

    const written = await applyOps(io, ctx.ledger, ctx.budget, ops, {
      freshSince: p.startedAt,
      intervalMs: limits.keyWriteIntervalMs,
    })
    if (written.kind === 'deferred') return written
    const last = page.names[page.names.length - 1]
    if (last) p.afterRev = last.rev
    else if (p.afterRev === '') p.afterRev = apexRev // meta written, empty zone
    p.ents = ents
    p.keysWritten += written.puts
    if (page.last) {
      p.phase = 'sweep'
      ctx.save()
      return sweepPages(ctx, p)
    }
    ctx.save()
  }
}

/** Lists the zone's node keys and deletes those with neither records nor names below them. */
async function sweepPages(ctx: StepContext, p: FullProgress): Promise<FullOutcome> {
  const { io, limits, state } = ctx
  const apex = state.zoneName!
  const prefix = nodeKey(apex, '')
  for (;;) {
    // One list plus up to one delete per listed key must fit the budget.
    const limit = Math.min(limits.listPage, ctx.budget.remaining - 1)
    if (limit < Math.min(limits.listPage, 50)) return { kind: 'progress' }
    ctx.budget.spend(1)
    const listed = await io.kv.list({
      prefix,
      limit,
      ...(p.listCursor ? { cursor: p.listCursor } : {}),
    })
    const names = listed.keys.map((k) => k.name.slice(prefix.length))
    const live = await liveNames(io.db, state.zoneId!, names)
    const ops: KeyOp[] = names
      .filter((n) => !live.has(n))
      .map((n) => ({ key: prefix + n, value: null }))
    const written = await applyOps(io, ctx.ledger, ctx.budget, ops, {
      freshSince: p.startedAt,
      intervalMs: limits.keyWriteIntervalMs,
    })
    if (written.kind === 'deferred') return written
    p.keysDeleted += written.deletes
    if (listed.list_complete) return finish(ctx, p)
    p.listCursor = listed.cursor
    ctx.save()
  }
}

function finish(ctx: StepContext, p: FullProgress): FullOutcome {
  const { state, io } = ctx
  const now = io.now()
  state.cursor = Math.max(state.cursor, p.startSeq)
  state.full = null
  state.builtAt = now
  state.lastFullBuildAt = now
  state.lastFullBuild = {
    ms: now - p.startedAt,
    keysWritten: p.keysWritten,
    keysDeleted: p.keysDeleted,
    startSeq: p.startSeq,
  }
  state.passes++
  state.lastPass = {
    kind: 'full',
    at: now,
    ms: now - p.startedAt,
    changes: 0,
    names: p.keysWritten,
    puts: p.keysWritten,
    deletes: p.keysDeleted,
    skipped: 0,
  }
  ctx.ledger.prune(now - ctx.limits.keyWriteIntervalMs)
  ctx.save()
  return { kind: 'progress' }
}
