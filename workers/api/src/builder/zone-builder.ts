/**
 * @module ZoneBuilder Durable Object: one per zone, the single writer of the zone's KV keys.
 * Every notification, alarm and rebuild request runs one budgeted build step under a mutex, so
 * per-record passes, full builds and purges never interleave. State is in DO storage; failures
 * reschedule the alarm with backoff and never advance the cursor.
 */
import { zoneCandidates } from '@edgedns/kv-layout'
import { DurableObject } from 'cloudflare:workers'
import { builderStub, type ChangeHint } from '../commit/zone-change.ts'
import type { StepContext, StepOutcome } from './context.ts'
import { appendPending, feedRetryDue } from './feed.ts'
import { fullBuildStep } from './full-build.ts'
import { HintChain } from './hints.ts'
import { ioFrom, KvBudget, type BuilderIo } from './io.ts'
import { KeyLedger } from './ledger.ts'
import { NodeMirror } from './mirror.ts'
import { backoffMs, limitsFrom, type BuildLimits } from './limits.ts'
import { perRecordPass } from './per-record.ts'
import { purgeStep, startPurge } from './purge.ts'
import { zonesNamed } from './queries.ts'
import { retireStep } from './retire.ts'
import { reportBuildState } from './report.ts'
import { SecondaryNotifier } from './secondary-notifier.ts'
import { StateStore, type BuilderState, type PassStats } from './state.ts'
import { VersionStore } from './versions.ts'
import { applyStrictLimits, inInvocation } from '@edgedns/strict-bindings'
import { shardCount, shardDb } from '../shards/databases.ts'
import { withDb } from '../shards/zone-env.ts'
import { routeOfZone } from '../shards/zone-shard.ts'

export interface BuilderStatus extends BuilderState {
  alarm: number | null
  ledgerKeys: number
  /** Names in the node mirror. */
  mirrorNames: number
  /** Buckets still to write (their names are visible through the overlay meanwhile). */
  dirtyBuckets: number
  /** Names the heads carry in their overlay. */
  overlayNames: number
  /** Keys no head reaches any more, waiting out the grace period before their delete. */
  retiredKeys: number
  /** Buckets written since the last head (the next head names their new versions). */
  headPending: number[]
  /** A step is running or waiting for its turn (its writes may still change what is above). */
  stepping: boolean
  /** The latest per-record passes' reports since the object started, oldest first (at most 256). */
  recentPasses: PassStats[]
}

/** Below this many KV operations left, a step hands over to the next invocation. */
const MIN_STEP_BUDGET = 20

/** Per-record pass reports `status()` keeps in memory. */
const RECENT_PASSES = 256

export class ZoneBuilder extends DurableObject<Env> {
  /** Replaceable by tests (fault injection, operation counting) through runInDurableObject. */
  io: BuilderIo
  limits: BuildLimits
  readonly #ledger: KeyLedger
  readonly #mirror: NodeMirror
  readonly #store: StateStore
  readonly #versions: VersionStore
  readonly #hints = new HintChain()
  /** When the first notification not yet taken up by a step arrived (for pass statistics). */
  #calledAt: number | null = null
  /** The latest per-record passes' reports, oldest first (memory only: for benchmarks). */
  readonly #recentPasses: PassStats[] = []
  #busy: Promise<void> | null = null
  #waiting = 0
  readonly #secondaries = new SecondaryNotifier((p) => this.ctx.waitUntil(p))
  /** Ends a yield after a head early: set while a step yields, called by the next caller. */
  #wake: (() => void) | null = null
  /** Highest sequence notified since the object started (saved with the next step's state). */
  #notified = 0
  /** A notification arrived and its safety alarm is not armed yet. */
  #safetyDue = false

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.io = ioFrom(applyStrictLimits(env))
    this.limits = limitsFrom(env)
    this.#ledger = new KeyLedger(ctx.storage.sql)
    this.#mirror = new NodeMirror(ctx.storage.sql)
    this.#store = new StateStore(ctx.storage.kv)
    this.#versions = new VersionStore(ctx.storage.sql)
  }

  /**
   * The API committed up to `seq`: build now; the safety alarm covers a crash in between. `hint`
   * (small changes) says what the change touched, so the pass can read log and rows at once.
   */
  notify(zoneId: string, seq: number, hint?: ChangeHint): Promise<void> {
    return inInvocation(() => this.#notify(zoneId, seq, hint))
  }

  async #notify(zoneId: string, seq: number, hint?: ChangeHint): Promise<void> {
    this.#calledAt ??= this.io.now()
    this.#adopt(zoneId)
    if (hint) this.#hints.add(hint)
    // Nothing is written here: a write would hold the pass's first D1 read until it is durable
    // (the output gate). The sequence is taken into the state by the step; the safety alarm is
    // armed once a per-record pass has written its head (before anything else for a full build
    // or a purge).
    this.#notified = Math.max(this.#notified, seq)
    this.#safetyDue = true
    await this.#exclusive(() => this.#step())
  }

  /** Full build on demand (repair); returns the status after the first step. */
  rebuild(zoneId: string): Promise<BuilderStatus> {
    return inInvocation(() => this.#rebuild(zoneId))
  }

  async #rebuild(zoneId: string): Promise<BuilderStatus> {
    const s = this.#adopt(zoneId)
    if (!s.full && !s.deleted) this.#store.ask('fullRequested')
    await this.#armSafetyNet()
    await this.#exclusive(() => this.#step())
    return this.status()
  }

  /**
   * A hosted zone below this one appeared or went: the next head carries the new list of
   * subzones (readers use it to know which longer suffixes of a name are zones).
   */
  async refreshMeta(zoneId: string): Promise<void> {
    const s = this.#adopt(zoneId)
    if (s.deleted || s.head.meta === null) return // not built yet: its first build reads the list
    this.#store.ask('metaRefresh')
    await this.#armSafetyNet()
    await this.#exclusive(() => this.#step())
  }

  async status(): Promise<BuilderStatus> {
    return {
      ...this.#store.load(),
      alarm: await this.ctx.storage.getAlarm(),
      ledgerKeys: this.#ledger.size(),
      mirrorNames: this.#mirror.count(),
      dirtyBuckets: this.#mirror.dirtyCount(),
      overlayNames: this.#mirror.overlayCount(0),
      retiredKeys: this.#versions.size(),
      headPending: [...this.#versions.completed().keys()],
      stepping: this.#busy !== null || this.#waiting > 0,
      recentPasses: [...this.#recentPasses],
    }
  }

  override async alarm(): Promise<void> {
    await inInvocation(() => this.#exclusive(() => this.#step()))
  }

  #adopt(zoneId: string): BuilderState {
    const s = this.#store.load()
    if (s.zoneId === null) {
      s.zoneId = zoneId
      this.#store.save(s)
    } else if (s.zoneId !== zoneId) {
      throw new Error(`ZoneBuilder of zone ${s.zoneId} asked to build zone ${zoneId}`)
    }
    return s
  }

  async #armSafetyNetIfDue(): Promise<void> {
    if (!this.#safetyDue) return
    this.#safetyDue = false
    await this.#armSafetyNet()
  }

  async #armSafetyNet(): Promise<void> {
    const at = this.io.now() + this.limits.safetyAlarmMs
    const current = await this.ctx.storage.getAlarm()
    if (current === null || current > at) await this.ctx.storage.setAlarm(at)
  }

  /** One step at a time; code after the await runs in the caller's invocation (its own limits). */
  async #exclusive(fn: () => Promise<void>): Promise<void> {
    this.#waiting++
    this.#wake?.()
    try {
      while (this.#busy) await this.#busy
    } finally {
      this.#waiting--
    }
    let release!: () => void
    this.#busy = new Promise<void>((r) => (release = r))
    try {
      await fn()
    } finally {
      this.#busy = null
      release()
    }
  }

  /** One invocation's worth of building, then the alarm that continues, retries or rests. */
  async #step(): Promise<void> {
    const s = this.#store.loadForStep()
    if (s.zoneId === null) return
    s.notified = Math.max(s.notified, this.#notified)
    const io = await this.#routedIo(s.zoneId)
    const ctx: StepContext = {
      io,
      ledger: this.#ledger,
      mirror: this.#mirror,
      versions: this.#versions,
      budget: new KvBudget(this.limits.maxKvOps),
      limits: this.limits,
      state: s,
      save: () => this.#store.save(s),
      preempted: () => this.#waiting > 0,
      hints: this.#hints,
      calledAt: this.#calledAt,
      outgoingSeen: () => this.#secondaries.outgoingSeen(io.db, s.zoneId!),
      afterAnnounce: async (yieldToReaders) => {
        if (yieldToReaders) await this.#yieldAfterHead(this.limits.yieldAfterHeadMs)
        await this.#armSafetyNetIfDue()
      },
    }
    this.#secondaries.passStarted()
    this.#calledAt = null
    const startCursor = s.cursor
    try {
      // A head the feed has not been told of goes first (a failure only sets its next attempt).
      if (feedRetryDue(s, this.io.now())) await appendPending(ctx)
      const outcome = this.#wakeups(await this.#work(ctx), s)
      const hadError = s.lastError !== null
      s.failures = 0
      s.lastError = null
      this.#store.save(s)
      await this.#schedule(outcome)
      if (hadError || s.reportedSeq !== s.cursor) {
        await reportBuildState(io.db, s, null)
        s.reportedSeq = s.cursor
        this.#store.save(s)
      }
      // A new serial (a full build's, or one a pass already announced and moved past since).
      if (s.cursor !== startCursor) this.#secondaries.announce(io.db, s)
    } catch (e) {
      s.failures++
      s.lastError = e instanceof Error ? e.message : String(e)
      this.#store.save(s)
      const now = this.io.now()
      await this.ctx.storage.setAlarm(now + backoffMs(this.limits, s.failures))
      console.warn(
        'zone builder step failed; retrying with backoff',
        s.zoneId,
        s.failures,
        s.lastError
      )
      await reportBuildState(io.db, s, { at: now, message: s.lastError }).catch(() => {})
    }
  }

  async #work(ctx: StepContext): Promise<StepOutcome> {
    const s = ctx.state
    for (;;) {
      if (ctx.budget.used > 0 && ctx.budget.remaining < MIN_STEP_BUDGET) return { kind: 'progress' }
      // A notification is waiting for the mutex: end here, its step builds the change first.
      if (ctx.budget.used > 0 && ctx.preempted?.()) return { kind: 'progress' }
      if (s.announce) await this.#announce(s, ctx.io.db)
      if (s.deleted) return { kind: 'idle' }
      let outcome: StepOutcome | { kind: 'deleted' } | { kind: 'full' }
      const spentBefore = ctx.budget.used
      const perRecord = !(s.purge || s.full || s.fullRequested || s.cursor === 0)
      if (!perRecord) await this.#armSafetyNetIfDue()
      if (s.purge) outcome = await purgeStep(ctx, this.env)
      else if (s.full || s.fullRequested || s.cursor === 0) outcome = await fullBuildStep(ctx)
      else {
        const cursor = s.cursor
        const reported = s.lastPass
        outcome = await perRecordPass(ctx)
        if (s.lastPass !== null && s.lastPass !== reported) {
          this.#recentPasses.push(s.lastPass)
          if (this.#recentPasses.length > RECENT_PASSES) this.#recentPasses.shift()
        }
        // After the head, so the alarm's write holds none of the pass's calls back.
        await this.#armSafetyNetIfDue()
        if (outcome.kind === 'idle' && s.retire.length > 0) outcome = await retireStep(ctx)
        if (s.cursor !== cursor) {
          // The pass made a new serial visible: the secondaries hear of it now, not after the
          // rest of the step (its report, bucket flush and any further passes).
          const notified = this.#secondaries.announce(ctx.io.db, s)
          // Without outgoing transfers the pass already yielded once its head was announced.
          const { yieldAfterHeadMs, yieldAfterNotifyMs } = this.limits
          await this.#yieldAfterHead(
            notified
              ? Math.max(yieldAfterHeadMs, yieldAfterNotifyMs)
              : s.outgoing
                ? yieldAfterHeadMs
                : 0
          )
        }
      }
      // A pass is visible once its head is written: say so now, not when the step ends (its
      // buckets may take several more invocations), so clients waiting on built_seq see it.
      if (s.cursor !== s.reportedSeq && s.lastError === null && !s.full) {
        await reportBuildState(ctx.io.db, s, null)
        s.reportedSeq = s.cursor
        ctx.save()
      }
      if (outcome.kind === 'deleted') await startPurge(ctx)
      else if (outcome.kind === 'full') {
        s.fullRequested = true
        ctx.save()
      } else if (outcome.kind !== 'progress') return outcome
      // A step that wants a fresh budget (its page does not fit what is left) spends nothing:
      // hand over to the next invocation instead of spinning without I/O.
      else if (ctx.budget.used > 0 && ctx.budget.used === spentBefore) return outcome
    }
  }

  /**
   * Leaves the thread for `ms` (`yieldAfterHeadMs`, or `yieldAfterNotifyMs` after a head that
   * started a NOTIFY round), or until a notification is waiting for the mutex
   * (its step then builds first: the loop ends on `preempted`). Locally the DoH worker's
   * confirmation read and the API's response would otherwise queue behind this step's report and
   * bucket flush; deployed (0) the builder has a thread of its own and goes straight on.
   */
  async #yieldAfterHead(ms: number): Promise<void> {
    if (ms <= 0 || this.#waiting > 0) return
    let timer: ReturnType<typeof setTimeout> | undefined
    await new Promise<void>((resolve) => {
      this.#wake = resolve
      timer = setTimeout(resolve, ms)
    })
    clearTimeout(timer)
    this.#wake = null
  }

  /** Tells the builders of the hosted zones above this one that their subzones changed. */
  async #announce(s: BuilderState, db: D1Database): Promise<void> {
    const name = s.zoneName
    if (name !== null) {
      const ancestors = zoneCandidates(name).slice(1)
      // Zones above this one are of the same account (nesting across accounts is refused), so
      // they are on the same shard.
      for (const id of await zonesNamed(db, ancestors)) {
        if (id === s.zoneId) continue
        await builderStub(this.env, id).refreshMeta(id)
      }
    }
    s.announce = false
    this.#store.save(s)
  }

  /**
   * The builder's io reading the zone's D1 shard. With several shards the directory is read at
   * every step (never an isolate cache): after an account moves, the next step reads the new shard.
   */
  async #routedIo(zoneId: string): Promise<BuilderIo> {
    if (shardCount(this.env) === 1) return this.io
    const route = await routeOfZone(this.env, zoneId, { fresh: true })
    return {
      ...this.io,
      db: applyStrictLimits(withDb(this.env, shardDb(this.env, route.shard))).DB,
    }
  }

  /**
   * An idle or waiting builder still wakes up for what is due later: the next superseded key to
   * delete (a bucket version, or an overlay key or versions table no head names any more), the
   * next attempt at a feed entry still pending.
   */
  #wakeups(outcome: StepOutcome, s: BuilderState): StepOutcome {
    if (outcome.kind === 'progress' || s.deleted) return outcome
    const overlays = s.overlayKeys.filter((o) => o.key !== s.namedOverlay)
    const due = Math.min(
      this.#versions.nextDue() ?? Number.POSITIVE_INFINITY,
      ...overlays.map((o) => o.at + this.limits.retireGraceMs)
    )
    const feed = s.feedPending !== null ? s.feedRetryAt : Number.POSITIVE_INFINITY
    const wake = Math.max(Math.min(due, feed), this.io.now())
    if (!Number.isFinite(wake)) return outcome
    if (outcome.kind === 'idle') return { kind: 'deferred', until: wake }
    return { kind: 'deferred', until: Math.min(outcome.until, wake) }
  }

  async #schedule(outcome: StepOutcome): Promise<void> {
    const storage = this.ctx.storage
    if (outcome.kind === 'progress') await storage.setAlarm(this.io.now())
    else if (outcome.kind === 'deferred') await storage.setAlarm(outcome.until)
    else if (this.#waiting === 0) await storage.deleteAlarm()
  }
}
