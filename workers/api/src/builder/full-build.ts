/**
 * @module Full build, resumable across invocations:
 * 1. write: every owner name of the zone in name_rev pages from D1, with the empty non-terminals
 *    above them, into a fresh node mirror (`nodes_next`, DO SQLite; no KV operation);
 * 2. buckets: the bucket count is picked from the zone size; every bucket 0..B-1 is written from
 *    the mirror (an empty one as such, so no stale bucket survives) at the version of the head
 *    that will switch to them, then the zone key and that head (`bv.base` = its counter):
 *    readers switch atomically with it. The keys the previous head named (an earlier bucket
 *    count, or earlier versions of this one) are queued and deleted after a grace period;
 * 3. prune: bucket keys neither live nor queued (another count, a version no head names) are
 *    listed and deleted.
 * Bucket writes of per-record passes not yet named by a head are named by one before the build
 * starts, so the build's version is above every version written so far: no bucket key is written
 * twice with different content.
 * The cursor moves to the sequence committed when the build started; changes made during the
 * build are replayed by per-record passes after it.
 */
import {
  ancestorsBetween,
  bucketCountFor,
  bucketPrefix,
  encodeNode,
  headCounter,
  headKeys,
  headZoneId,
  isInZone,
  zoneKey,
} from '@edgedns/kv-layout'
import { reverseName } from '../records/model.ts'
import type { StepContext, StepOutcome } from './context.ts'
import { namesWithRecords, readNames, readPage, readZone, type Page } from './queries.ts'
import { buildMeta } from './meta.ts'
import { resumedPhase, resumedPhaseTimes } from './phase-times.ts'
import { nextHead, publishHead } from './publish-head.ts'
import { LAYOUT_FORMAT, type FullProgress } from './state.ts'
import { EMPTY_NODE, isServed, nodeFromRows } from './values.ts'
import { ALWAYS, applyOps, type KeyOp } from './writer.ts'
import { yieldToRuntime } from './yield.ts'

export type FullOutcome = StepOutcome | { kind: 'deleted' }

export async function fullBuildStep(ctx: StepContext): Promise<FullOutcome> {
  const { state } = ctx
  if (!state.full) {
    const zone = await readZone(ctx.io.db, state.zoneId!)
    if (!zone) return { kind: 'deleted' }
    // A zone never activated (pending, or fenced by an account move while pending) has nothing in
    // KV and gets nothing (its name is not its own yet): its activation logs a full-build request,
    // which finds the builder here again, cursor still 0.
    if (!isServed(zone)) return { kind: 'idle' }
    state.outgoing = zone.outgoing_enabled === 1
    // Buckets written since the last head get a head naming them first: this build writes its
    // buckets at the counter after it.
    if (ctx.versions.written().size > 0 && state.head.meta !== null) {
      const head = await publishHead(ctx)
      if (head.kind !== 'written') return head
    }
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
      buckets: 0,
      bucketNext: 0,
    }
    state.fullRequested = false
    // Buckets still to write for per-record passes are overtaken: this build writes every bucket.
    ctx.mirror.clearDirty()
    ctx.mirror.resetNext()
    ctx.save()
  }
  const progress = state.full
  progress.phase = resumedPhase(progress.phase)
  const phaseMs = (progress.phaseMs = resumedPhaseTimes(progress.phaseMs))
  let at = ctx.io.now()
  // Charges the time since the last lap to the phase in progress (called before a phase changes).
  const lap = () => {
    const now = ctx.io.now()
    phaseMs[progress.phase] += now - at
    at = now
  }
  ctx.onPhase = lap
  try {
    if (progress.phase === 'write') return await mirrorPages(ctx, progress)
    if (progress.phase === 'buckets') return await writeBuckets(ctx, progress)
    return await prunePages(ctx, progress)
  } finally {
    ctx.onPhase = undefined
    if (state.full) {
      lap()
      ctx.save()
    }
  }
}

/**
 * D1 queries a mirror page costs: the page (joined, and as rows when that read is unusable) and
 * the names among its ancestors with records.
 */
const PAGE_READS = 3

/** Budget a mirror page wants left before it is read (its reads, then margin). */
const PAGE_ROOM = 30

/** D1 pages of names → `nodes_next`. D1 queries are charged to the budget (1 each). */
async function mirrorPages(ctx: StepContext, p: FullProgress): Promise<FullOutcome> {
  const { io, limits, state } = ctx
  const zoneId = state.zoneId!
  const apex = state.zoneName!
  const apexRev = reverseName(apex)
  // Pages are read joined until a joined read cannot be used (long rows, say): then, for the
  // rest of this invocation, as rows, so such a zone pays a failed read once an invocation at most.
  let joined = true
  const read = (afterRev: string) => {
    ctx.budget.spend(PAGE_READS)
    return readPage(io.db, zoneId, apexRev, afterRev, limits.mirrorPageNames, joined)
  }
  // The next page's read, started as soon as this page's last name is known: D1 works on it
  // while this page is turned into nodes. Only when the budget leaves room for it after this
  // page, so a read ahead is never dropped for want of budget.
  let ahead: Promise<Page> | null = null
  for (let k = 0; ; k++) {
    if (ctx.budget.used > 0 && ctx.budget.remaining < PAGE_ROOM) return { kind: 'progress' }
    // Requests that arrived meanwhile (an API call, a DoH query) are served between pages.
    if (k > 0) await yieldToRuntime()
    const page = await (ahead ?? read(p.afterRev))
    ahead = null
    if (page.joinedFailed) joined = false
    const lastName = page.names[page.names.length - 1]
    if (!page.last && lastName && ctx.budget.remaining - PAGE_READS >= PAGE_ROOM) {
      ahead = read(reverseName(lastName.name))
      // A read ahead that is never awaited (this page's nodes failed) fails quietly.
      ahead.catch(() => {})
    }
    const inPage = new Set(page.names.map((n) => n.name))
    const ancestorsOf = page.names.map(({ name }) => ancestorsBetween(name, apex))
    const ancestors = new Set(ancestorsOf.flat())
    const unknown = [...ancestors].filter((a) => !inPage.has(a) && !p.ents.includes(a))
    const withRecords = await namesWithRecords(io.db, zoneId, unknown)

    let ents = p.ents
    const nodes: [string, string][] = []
    page.names.forEach(({ name, rows }, i) => {
      ents = ents.filter((e) => e !== name && isInZone(name, e))
      for (const a of ancestorsOf[i]!) {
        if (inPage.has(a) || withRecords.has(a) || ents.includes(a)) continue
        nodes.push([a, encodeNode(EMPTY_NODE)])
        ents.push(a)
      }
      nodes.push([name, encodeNode(nodeFromRows(rows))])
    })
    ctx.mirror.appendNext(nodes)
    if (lastName) p.afterRev = reverseName(lastName.name)
    else if (p.afterRev === '') p.afterRev = apexRev
    p.ents = ents
    if (page.last) {
      ctx.mirror.swapNext()
      p.buckets = bucketCountFor(ctx.mirror.count(), limits.namesPerBucket)
      p.bucketNext = 0
      ctx.onPhase?.()
      p.phase = 'buckets'
      ctx.save()
      return writeBuckets(ctx, p)
    }
    ctx.save()
  }
}

/** Every bucket of the chosen count from the mirror, then the meta key (the switch). */
async function writeBuckets(ctx: StepContext, p: FullProgress): Promise<FullOutcome> {
  const { io, limits, state } = ctx
  const apex = state.zoneName!
  const write = { freshSince: p.startedAt, intervalMs: limits.keyWriteIntervalMs }
  if (state.head.n === 0 && p.bucketNext === 0) {
    // This zone's first build, before its first bucket. The slots may hold the heads of an earlier
    // zone of the same name (deleted while this one was created). Readers never take them for
    // this zone, but a reader still holding the earlier zone reads only its next slot: an empty
    // one sends it to the zone key, which this build is about to change. Only those heads are
    // deleted: a slot deleted now could not take this zone's own head for a key interval.
    const slots = headKeys(apex)
    if (ctx.budget.remaining < slots.length + 1) return { kind: 'progress' }
    ctx.budget.spend(1)
    const held = await io.kv.get(slots, 'text')
    const staleKeys = slots.filter((key) => {
      const text = held.get(key)
      return typeof text === 'string' && headZoneId(text) !== state.zoneId
    })
    // This zone's counters continue above the earlier zone's: its versioned keys (heads,
    // buckets) are never written again under a name a location may have read for that zone.
    for (const key of staleKeys)
      state.headAttempt = Math.max(state.headAttempt, headCounter(held.get(key) as string))
    const stale = staleKeys.map((key) => ({ key, value: null }))
    if (stale.length > 0) {
      const cleared = await applyOps(io, ctx.ledger, ctx.budget, stale, write)
      if (cleared.kind === 'deferred') return cleared
      p.keysDeleted += cleared.deletes
    }
  }
  // No head is written from here to the switch: its counter is this build's bucket version.
  if (p.version === undefined) {
    p.version = nextHead(state)
    // A build the previous layout format began wrote unversioned buckets: start them over.
    p.bucketNext = 0
    ctx.save()
  }
  const version = p.version
  for (let k = 0; ; k++) {
    if (k > 0) await yieldToRuntime()
    const room = Math.min(500, ctx.budget.remaining - 2)
    if (room < 1) return { kind: 'progress' }
    const ops: KeyOp[] = []
    const end = Math.min(p.buckets, p.bucketNext + room)
    for (let i = p.bucketNext; i < end; i++)
      ops.push(ctx.mirror.bucketOp(apex, p.buckets, i, { id: state.zoneId!, v: version }))
    if (ops.length > 0) {
      const written = await applyOps(io, ctx.ledger, ctx.budget, ops, write)
      if (written.kind === 'deferred') return written
      p.keysWritten += written.puts
      p.keysDeleted += written.deletes
      p.bucketNext = end
      ctx.save()
      continue
    }
    // All buckets written: the zone key, then the head that switches readers to this count.
    const zone = await readZone(io.db, state.zoneId!)
    if (!zone) return { kind: 'deleted' }
    const apexRows = (await readNames(io.db, state.zoneId!, [apex])).rows.get(apex) ?? []
    if (p.from === undefined) {
      p.from = state.layout
        ? { buckets: state.layout.buckets, base: state.layout.base ?? null }
        : null
      ctx.save()
    }
    const from = p.from
    const previous = from?.buckets
    state.retire = state.retire.filter((r) => r.buckets !== p.buckets)
    if (
      previous !== undefined &&
      previous !== p.buckets &&
      !state.retire.some((r) => r.buckets === previous)
    )
      state.retire.push({
        buckets: previous,
        notBefore: io.now() + limits.retireGraceMs,
        next: 0,
        queued: true,
      })
    state.layout = { buckets: p.buckets, base: version }
    const meta = await buildMeta(ctx, zone, apexRows, p.buckets)
    const written = await applyOps(
      io,
      ctx.ledger,
      ctx.budget,
      [{ key: zoneKey(apex), value: meta }],
      write
    )
    if (written.kind === 'deferred') return written
    p.keysWritten += written.puts
    // Every bucket now holds the mirror: the overlay is empty and readers drop what they hold.
    ctx.mirror.clearOverlay()
    state.head.meta = meta
    state.zonePending = null
    state.metaRefresh = false
    const head = await publishHead(ctx, {
      all: true,
      // The keys the previous head named wait out the grace period, then go.
      onWritten: () =>
        ctx.versions.switched(
          apex,
          state.zoneId!,
          from?.buckets,
          from?.base ?? null,
          io.now() + limits.retireGraceMs
        ),
    })
    if (head.kind !== 'written') return head
    p.keysWritten++
    if (state.format !== LAYOUT_FORMAT && previous === undefined) state.announce = true
    state.format = LAYOUT_FORMAT
    ctx.onPhase?.()
    p.phase = 'prune'
    ctx.save()
    return prunePages(ctx, p)
  }
}

/**
 * Deletes leftovers: bucket keys of a count that is neither live nor retiring (e.g. left by an
 * earlier zone of the same name), and keys of the live count at a version this build did not
 * write and not queued for retirement (a write whose outcome was never known).
 */
async function prunePages(ctx: StepContext, p: FullProgress): Promise<FullOutcome> {
  const { io, limits, state } = ctx
  const zone = state.zoneName!
  const prefix = bucketPrefix(zone)
  for (;;) {
    const keep = new Set([state.layout?.buckets, ...state.retire.map((r) => r.buckets)])
    const limit = Math.min(limits.listPage, ctx.budget.remaining - 1)
    // A fresh invocation always lists (even a small page); a used one yields rather than list tiny pages.
    if (limit < 1 || (ctx.budget.used > 0 && limit < Math.min(limits.listPage, 50)))
      return { kind: 'progress' }
    ctx.budget.spend(1)
    const listed = await io.kv.list({
      prefix,
      limit,
      ...(p.listCursor ? { cursor: p.listCursor } : {}),
    })
    const live = state.layout?.buckets
    const odd: string[] = []
    const drop: string[] = []
    for (const { name } of listed.keys) {
      const [count, , v] = name.slice(prefix.length).split(':')
      if (!keep.has(Number(count))) drop.push(name)
      // (A prune the previous layout format began keeps the live count: its head names it.)
      else if (
        Number(count) === live &&
        p.version !== undefined &&
        (v === undefined || Number(v) !== p.version)
      )
        odd.push(name)
    }
    const queued = ctx.versions.queued(odd)
    drop.push(...odd.filter((k) => !queued.has(k)))
    const ops: KeyOp[] = drop.map((key) => ({ key, value: null }))
    const written = await applyOps(io, ctx.ledger, ctx.budget, ops, {
      freshSince: ALWAYS,
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
  ctx.onPhase?.()
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
    ...(p.phaseMs ? { phaseMs: p.phaseMs } : {}),
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
