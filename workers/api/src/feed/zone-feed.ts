/**
 * @module ZoneFeed Durable Object: the feed primary (one, `idFromName('primary')`). Keeps the log
 * in SQLite (logic in `FeedLog`), answers builders' appends, isolates' and replicas' polls and
 * tails, the cron's reconciliation, and in its alarm compiles the hosted-zone index into KV
 * (`ix:<version>`, written once) before announcing it, and trims the log.
 */
import { indexKey } from '@edgedns/kv-layout'
import {
  FeedInputError,
  FeedLog,
  WatchOffers,
  type AppendReply,
  type DigestReply,
  type FeedAppend,
  type PollReply,
  type PollRequest,
  type ServedZone,
  type TailReply,
  type TailRequest,
} from '@edgedns/zone-feed'
import { DurableObject } from 'cloudflare:workers'
import { applyStrictLimits, inInvocation } from '@edgedns/strict-bindings'
import { SqlFeedStore } from './sql-store.ts'

/** The name of the primary's object. */
const PRIMARY_NAME = 'primary'

export interface FeedBinding {
  ZONE_FEED: DurableObjectNamespace<ZoneFeed>
}

export function primaryFeed(env: FeedBinding): DurableObjectStub<ZoneFeed> {
  return env.ZONE_FEED.get(env.ZONE_FEED.idFromName(PRIMARY_NAME))
}

/** Longest a watch (a poll with `waitMs`) is held open. */
const MAX_WATCH_MS = 5000

/** A watch registered this recently (ms) makes the primary tell builders it is watched. */
const WATCHED_WITHIN_MS = 10_000

/** Most zones per `reconcileZones` call (keeps one call's payload and transaction small). */
export const RECONCILE_CHUNK = 5000

export class ZoneFeed extends DurableObject<Env> {
  readonly #log: FeedLog
  /** The alarm as this instance set it (undefined: not read yet). */
  #alarmAt: number | null | undefined = undefined
  /** Watches waiting for the next entry (each ends itself after its wait). */
  readonly #watchers = new Set<() => void>()
  /** When the last watch was registered (0: none since this instance started). */
  #watchedAt = 0
  /** Heads offered to watchers (`offer`), kept briefly for the watches that waited for them. */
  readonly #offers = new WatchOffers()

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.#log = new FeedLog(new SqlFeedStore(ctx.storage))
  }

  /**
   * Appends entries (idempotent); durable when the call returns. Says whether an isolate watched
   * lately, so the builder knows whether offering its next head before writing it reaches anyone.
   */
  async append(entries: FeedAppend[]): Promise<AppendReply> {
    const now = Date.now()
    this.#log.append(entries, now)
    this.#wake()
    await this.#schedule()
    return { watched: this.#watchers.size > 0 || now - this.#watchedAt < WATCHED_WITHIN_MS }
  }

  /**
   * Heads not yet in KV, for the isolates watching (`OfferedHead`): wakes every watch, which
   * answers with them. Nothing is stored or logged; plain polls and replicas never see offers.
   */
  async offer(heads: unknown): Promise<void> {
    this.#offers.add(heads, Date.now())
    this.#wake()
  }

  /** A poll; a watch (`waitMs`) with nothing after its cursor waits for the next entry first. */
  async poll(request: PollRequest): Promise<PollReply> {
    const arrived = Date.now()
    const reply = this.#log.poll(request, arrived)
    const waitMs = Math.min(Number(request.waitMs) || 0, MAX_WATCH_MS)
    if (waitMs <= 0 || reply.entries.length > 0 || reply.resync) return reply
    this.#watchedAt = arrived
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer)
        this.#watchers.delete(done)
        resolve()
      }
      const timer = setTimeout(done, waitMs)
      this.#watchers.add(done)
    })
    const answered = Date.now()
    const offered = this.#offers.since(arrived, answered)
    return {
      ...this.#log.poll(request, answered),
      heldMs: answered - arrived,
      ...(offered.length > 0 ? { offered } : {}),
    }
  }

  /** Ends every watch waiting (entries or offers arrived). */
  #wake(): void {
    for (const done of [...this.#watchers]) done()
  }

  /** What a replica pulls (`tail` itself is a reserved handler name of Workers). */
  async tailAfter(request: TailRequest): Promise<TailReply> {
    return this.#log.tail(request)
  }

  async digest(): Promise<DigestReply> {
    return this.#log.digest()
  }

  /** D1's served set has this digest: true (check recorded) when the feed is complete and agrees. */
  async confirm(digest: string): Promise<boolean> {
    return this.#log.confirm(digest, Date.now())
  }

  async reconcileBegin(): Promise<{ session: number; asOf: number }> {
    return this.#log.reconcileBegin()
  }

  async reconcileZones(session: number, zones: ServedZone[]): Promise<void> {
    if (!Array.isArray(zones) || zones.length > RECONCILE_CHUNK)
      throw new FeedInputError(`reconcile: at most ${RECONCILE_CHUNK} zones a call`)
    this.#log.reconcileZones(session, zones, Date.now())
    this.#wake()
    await this.#schedule()
  }

  async reconcileEnd(session: number): Promise<void> {
    this.#log.reconcileEnd(session, Date.now())
    this.#wake()
    await this.#schedule()
  }

  override async alarm(): Promise<void> {
    this.#alarmAt = null
    await inInvocation(() => this.#maintain())
  }

  /** Compiles and publishes the index when due, trims, and sets the next alarm. */
  async #maintain(): Promise<void> {
    const now = Date.now()
    if (this.#log.indexDue(now)) {
      const compiled = this.#log.compileIndex(now)
      const key = indexKey(compiled.version)
      // Written before it is announced, under a key never written before: readers find it whole.
      await applyStrictLimits(this.env).ZONES_KV.put(key, compiled.bytes)
      this.#log.publishIndex(compiled, key)
    }
    this.#log.trim(now)
    await this.#schedule()
  }

  async #schedule(): Promise<void> {
    const next = this.#log.nextMaintenance(Date.now())
    if (next === null) return
    if (this.#alarmAt === undefined) this.#alarmAt = await this.ctx.storage.getAlarm()
    if (this.#alarmAt !== null && this.#alarmAt <= next) return
    await this.ctx.storage.setAlarm(next)
    this.#alarmAt = next
  }
}
