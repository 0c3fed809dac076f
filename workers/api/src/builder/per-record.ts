/**
 * @module Per-record build pass: the change log since the cursor → touched owner names (old and
 * new name of every change plus their ancestors up to the apex) → their current rows and
 * empty-non-terminal status from D1 (one round trip) → the node mirror, the overlay and the next
 * head (one KV write and one feed append make the pass visible; its slot copy follows) → cursor.
 * Then, in the background, every bucket holding a touched name is reassembled from the mirror and
 * written once, as many per invocation as the KV budget allows; the next head drops those names
 * from the overlay.
 * Cost follows the number of touched names, not the zone size.
 */
import {
  ancestorsBetween,
  bucketCountFor,
  bucketOf,
  bucketKey,
  bucketVersion,
  decodeZoneMeta,
  encodeNode,
  encodeZoneMeta,
  isInZone,
  zoneKey,
} from '@edgedns/kv-layout'
import type { StepContext, StepOutcome } from './context.ts'
import { buildMeta } from './meta.ts'
import { digestOf } from './ledger.ts'
import { nextHead, publishHead } from './publish-head.ts'
import { readNames, readZoneAndLog, type LogRow } from './queries.ts'
import { LAYOUT_FORMAT } from './state.ts'
import { EMPTY_NODE, isServed, nodeFromRows } from './values.ts'
import { applyOps, type KeyOp } from './writer.ts'
import { yieldToRuntime } from './yield.ts'

/** `meta` (encoded) with the serial `serial`; the same string when it already has it. */
function withSerial(meta: string, serial: number): string {
  const decoded = decodeZoneMeta(meta)
  return decoded.serial === serial ? meta : encodeZoneMeta({ ...decoded, serial })
}

/** Besides the usual outcomes, the log can ask for a full build or a purge. */
export type PerRecordOutcome = StepOutcome | { kind: 'full' } | { kind: 'deleted' }

interface PassPlan {
  upTo: number
  changes: number
  names: Set<string>
  meta: boolean
  special: 'full' | 'deleted' | null
}

/** An overlay this large is flushed into buckets before another pass adds to it. */
const OVERLAY_MAX_FACTOR = 2
/** Names encoded between two yields to the runtime in a large pass. */
const YIELD_EVERY = 1000
/** A finished flush publishes a head of its own when at least this many overlay names are in their buckets. */
const HEAD_AT_FLUSHED = 256

/**
 * Takes log rows in order while the touched names fit in `maxNames` (at least one change). The
 * KV budget does not bound a pass: its buckets are written over as many invocations as they need.
 */
function planPass(log: LogRow[], apex: string, maxNames: number): PassPlan {
  const plan: PassPlan = { upTo: 0, changes: 0, names: new Set(), meta: false, special: null }
  for (const change of log) {
    if (change.op === 'full' || change.op === 'replace') return { ...plan, special: 'full' }
    if (change.op === 'zone_delete') return { ...plan, special: 'deleted' }
    const names = new Set<string>()
    let meta = change.op === 'zone' || change.op === 'soa'
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
  const layout = state.layout
  // A zone built in an older layout format gets a full build first.
  if (!layout || state.format !== LAYOUT_FORMAT || state.head.meta === null) return { kind: 'full' }
  // Flush a large overlay into its buckets before adding more to it (bounds every head's size).
  if (ctx.mirror.overlayCount(0) > OVERLAY_MAX_FACTOR * limits.passNames) return flushBuckets(ctx)
  // This step's pass already consumed every notified change: nothing new to read (a change
  // notified meanwhile waits for the mutex and its own step reads the log).
  if (ctx.drained && state.cursor >= state.notified && !state.metaRefresh) return flushBuckets(ctx)
  const started = io.now()
  const zoneId = state.zoneId!
  // A notification that described the changes after the cursor lets the rows of the names they
  // touch come in the same round trip as the log (used below only if the log agrees).
  const expected =
    state.zoneName !== null
      ? (ctx.hints?.expectedNames(state.cursor, state.zoneName) ?? null)
      : null
  // A change expected to touch the apex (or a pending refresh) rebuilds the metadata: its
  // subzones come in the same round trip.
  const metaExpected =
    state.zoneName !== null && (state.metaRefresh || (expected?.includes(state.zoneName) ?? false))
  const first = await readZoneAndLog(
    io.db,
    zoneId,
    state.cursor,
    limits.logChunk,
    expected ?? [],
    metaExpected ? state.zoneName : null
  )
  const { zone, log } = first
  if (!zone) return { kind: 'deleted' }
  if (!isServed(zone)) return { kind: 'idle' }
  state.outgoing = zone.outgoing_enabled === 1
  if (state.zoneName !== zone.name) {
    state.zoneName = zone.name
    ctx.save()
  }
  if (log.length === 0 && !state.metaRefresh) return flushBuckets(ctx)
  // Read after the log: the zone's serial it finds is at least the head this pass writes.
  if (state.outgoing) ctx.outgoingSeen?.()

  const apex = zone.name
  // A backlog larger than one pass and than a quarter of the zone (a bulk import or seed) is
  // cheaper as one full build than as passes that each reassemble most of the buckets.
  const backlog = zone.change_seq - state.cursor
  if (backlog > limits.passNames && backlog * 4 > ctx.mirror.count()) return { kind: 'full' }
  const plan = planPass(log, apex, limits.passNames)
  if (plan.changes === 0 && plan.special) return { kind: plan.special }
  const meta = plan.meta || state.metaRefresh

  const names = [...plan.names]
  const wanted = meta ? [...names, apex] : names
  const current =
    first.names && wanted.every((n) => first.names!.names.has(n))
      ? first.names
      : await readNames(io.db, zoneId, wanted)
  const read = io.now()
  const buckets = new Set<number>()
  const overlay: [string, number][] = []
  const nodes: [string, string | null][] = []
  for (const [k, name] of names.entries()) {
    // Locally the builder shares workerd's thread with the API: let it run between stretches.
    if (k > 0 && k % YIELD_EVERY === 0) {
      ctx.mirror.setMany(nodes.splice(0))
      await yieldToRuntime()
    }
    const rows = current.rows.get(name)
    nodes.push([
      name,
      rows
        ? encodeNode(nodeFromRows(rows))
        : current.hasDescendants.has(name)
          ? encodeNode(EMPTY_NODE)
          : null,
    ])
    const i = bucketOf(name, layout.buckets)
    buckets.add(i)
    overlay.push([name, i])
  }
  ctx.mirror.setMany(nodes)
  ctx.mirror.markDirty(buckets)
  ctx.mirror.addOverlay(overlay)
  // Every change moves the zone's serial, and the served SOA is the head's: a pass that brings the
  // zone up to its last change carries the zone's serial (secondaries compare it after a NOTIFY);
  // one that leaves changes for the next pass keeps the serial the head had, so a serial is never
  // served before the records it stands for. The meta key itself is rewritten on apex and settings
  // changes only (cold readers take the head's).
  const upToDate = (plan.upTo || state.cursor) >= zone.change_seq
  const previous = state.head.meta
  if (meta) {
    const encoded = await buildMeta(
      ctx,
      zone,
      current.rows.get(apex) ?? [],
      undefined,
      first.subzones
    )
    state.head.meta = upToDate ? encoded : withSerial(encoded, decodeZoneMeta(previous).serial)
    state.zonePending = state.head.meta
    state.metaRefresh = false
  } else if (upToDate) {
    state.head.meta = withSerial(previous, zone.serial)
  }
  // Mirror rows, dirty set, overlay and metadata are saved before the head goes out. A crash in
  // between (or in the yields above) leaves the cursor where it was: the retry recomputes the
  // same names, state-based.
  ctx.save()
  const encoded = io.now()

  // A zone with outgoing transfers yields after the pass instead, once its NOTIFY round is out.
  const afterAnnounce = ctx.afterAnnounce
  const published = await publishHead(
    ctx,
    afterAnnounce ? { afterAnnounce: () => afterAnnounce(!state.outgoing) } : {}
  )
  if (published.kind !== 'written') return published
  // The pass's time ends when its head is announced (the slot's put and any yield come after).
  const now = published.announcedAt
  state.cursor = plan.upTo || state.cursor
  ctx.drained = state.cursor >= state.notified
  state.builtAt = now
  state.passes++
  state.lastPass = {
    kind: 'per-record',
    at: now,
    ms: now - started,
    changes: plan.changes,
    names: names.length,
    puts: 1,
    deletes: 0,
    skipped: 0,
    phaseMs: {
      read: read - started,
      nodes: encoded - read,
      publish: now - encoded,
      headKv: published.kvMs,
      feed: published.appendMs,
    },
    readTrips:
      (current === first.names ? 1 : 2) + (meta && first.subzones?.of !== zone.name ? 1 : 0),
    ...(ctx.calledAt != null ? { calledAt: ctx.calledAt } : {}),
  }
  // The zone outgrew its bucket count (twice the target names per bucket): a full build picks a
  // larger count and switches to it. Checked after every large pass and every 64th pass
  // (count(*) over the mirror costs about a millisecond per 100k names).
  if ((names.length >= 256 || state.passes % 64 === 0) && !state.fullRequested) {
    const count = ctx.mirror.count()
    if (
      count > 2 * limits.namesPerBucket * layout.buckets &&
      layout.buckets < bucketCountFor(count, limits.namesPerBucket)
    )
      state.fullRequested = true
  }
  ctx.save()
  return { kind: 'progress' }
}

/**
 * Background flush: writes dirty buckets at the version the next head will carry (as many as
 * the budget allows; a bucket whose content did not change is not written, and one already
 * written since the last head waits for the next), and the zone key when it changed. Once many
 * overlay names are in their buckets, or buckets wait for a head, a head that names them. When
 * nothing else is left: deletes expired overlay keys and superseded bucket versions.
 */
export async function flushBuckets(ctx: StepContext): Promise<PerRecordOutcome> {
  const { io, state, limits } = ctx
  const layout = state.layout!
  const base = layout.base!
  const apex = state.zoneName!
  const version = nextHead(state)
  const room = Math.max(1, ctx.budget.remaining - 10)
  // A bucket written since the last head keeps that version until a head names it.
  const blocked = ctx.versions.written()
  const candidates = ctx.mirror.dirty(room + blocked.size)
  const dirty = candidates.filter((i) => !blocked.has(i)).slice(0, room)
  let until = Number.POSITIVE_INFINITY
  const pace = { freshSince: 0, intervalMs: limits.keyWriteIntervalMs }
  if (state.zonePending !== null) {
    const written = await applyOps(
      io,
      ctx.ledger,
      ctx.budget,
      [{ key: zoneKey(apex), value: state.zonePending }],
      pace
    )
    if (written.kind === 'deferred') until = Math.min(until, written.until)
    else {
      state.zonePending = null
      ctx.save()
      if (dirty.length === 0) return { kind: 'progress' }
    }
  }
  if (dirty.length > 0) {
    const named = ctx.versions.named(base)
    // In slices, so a change notified meanwhile waits for one slice, not for the whole budget.
    for (let from = 0; from < dirty.length; from += limits.flushSlice) {
      if (from > 0 && ctx.preempted?.()) break
      const slice = dirty.slice(from, from + limits.flushSlice)
      const ops: KeyOp[] = []
      const current: string[] = []
      for (const i of slice) {
        await yieldToRuntime()
        ops.push(ctx.mirror.bucketOp(apex, layout.buckets, i, { id: state.zoneId!, v: version }))
        current.push(
          bucketKey(apex, layout.buckets, i, { id: state.zoneId!, v: bucketVersion(named, i) })
        )
      }
      // A bucket whose named version already holds this content needs no new version.
      const held = ctx.ledger.lookup(current)
      for (const op of ops) op.digest = digestOf(op.value!)
      const changed = ops.filter((op, k) => held.get(current[k]!)?.digest !== op.digest)
      const indexes = slice.filter((_, k) => changed.includes(ops[k]!))
      ctx.versions.begin(indexes, version)
      // New keys: nothing to pace.
      const written = await applyOps(io, ctx.ledger, ctx.budget, changed, pace)
      if (written.kind === 'deferred') return written
      ctx.versions.complete(indexes)
      ctx.mirror.markClean(slice)
      ctx.mirror.markFlushed(slice)
      ctx.save()
    }
    return { kind: 'progress' }
  }
  if (Number.isFinite(until)) return { kind: 'deferred', until }
  // Buckets wait for a head naming their last version, or many names are already in their buckets.
  const waiting = candidates.some((i) => blocked.has(i))
  if (waiting || ctx.mirror.overlayCount(1) >= HEAD_AT_FLUSHED) {
    const head = await publishHead(ctx)
    return head.kind === 'written' ? { kind: 'progress' } : head
  }
  await retireDue(ctx)
  return { kind: 'idle' }
}

/**
 * Overlay keys of earlier heads and superseded bucket versions: deleted once readers can no
 * longer hold a head naming them (`retireGraceMs`), within what is left of the KV budget.
 */
async function retireDue(ctx: StepContext): Promise<void> {
  const { io, state, limits } = ctx
  const now = io.now()
  const expired = (state.overlayKeys ?? []).filter(
    (o) => o.key !== state.namedOverlay && o.at + limits.retireGraceMs <= now
  )
  if (expired.length > 0 && ctx.budget.remaining > expired.length + 10) {
    await applyOps(
      io,
      ctx.ledger,
      ctx.budget,
      expired.map((o) => ({ key: o.key, value: null })),
      { freshSince: Number.POSITIVE_INFINITY, intervalMs: 0 }
    )
    state.overlayKeys = state.overlayKeys.filter((o) => !expired.includes(o))
    ctx.save()
  }
  const due = ctx.versions.due(now, ctx.budget.remaining - 10)
  if (due.length > 0) {
    await applyOps(
      io,
      ctx.ledger,
      ctx.budget,
      due.map((key) => ({ key, value: null })),
      { freshSince: Number.POSITIVE_INFINITY, intervalMs: 0 }
    )
    ctx.versions.deleted(due)
    ctx.ledger.prune(now - limits.keyWriteIntervalMs)
    ctx.save()
  }
}
