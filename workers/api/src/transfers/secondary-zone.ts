/**
 * @module SecondaryZone: one Durable Object per secondary zone (`idFromName(zoneId)`) that keeps
 * the zone a copy of its primary's. A check asks each primary of the zone's incoming settings, in
 * order, for its SOA over TCP; when the serial is after ours (RFC 1982) it pulls IXFR (the peer has
 * IXFR enabled and we hold a serial) or AXFR, and commits the transfer as one change
 * (transfer-from.ts, transfer-commit.ts). Checks run from the object's alarm on the SOA's
 * refresh/retry schedule (`schedule` in @edgedns/zone-transfer), on a NOTIFY, and on
 * `force_axfr`. One check runs at a time; a request during a check waits for it and then runs its
 * own. A NOTIFY that arrives while a check is due or running is deferred, not dropped (RFC 1996
 * §4.4): it leaves a flag in storage, and a check that ends with the flag set is followed by
 * another. Checks a NOTIFY asks for start at least NOTIFY_CHECK_SPACING_MS apart (`force_axfr` is
 * not spaced): the NOTIFYs of that interval fold into one check at its end.
 *
 * The zone's serial is the primary's: it is asked IXFR from the serial of the copy it holds (the
 * zone's record of its copy, held-copy.ts, answered as the incoming settings' `soa_serial`), and
 * zone-level commits keep its serial (commit/zone-change.ts). Settings that no longer name the
 * primary the copy came from pull it whole.
 * A secondary zone is not answered (as an expired one) until its first transfer commits: a failed
 * check marks so one with no transfer that still answers; only a good check ends that, or expiry.
 */
import { DurableObject } from 'cloudflare:workers'
import { applyStrictLimits, inInvocation } from '@edgedns/strict-bindings'
import {
  boundedTimers,
  DEFAULT_TIMER_BOUNDS,
  schedule,
  soaTimers,
  type SoaTimers,
  type TimerBounds,
} from '@edgedns/zone-transfer'
import { builderStub, CommitConflict } from '../commit/zone-change.ts'
import { envForZone } from '../shards/zone-env.ts'
import { confirmedAt, fromAnotherPrimary, mappedBefore } from './held-copy.ts'
import { readIncoming, type IncomingConfig, type Primary } from './incoming-config.ts'
import type { CheckStatus } from './incoming-settings.ts'
import { commitExpiry } from './expiry-commit.ts'
import {
  guardOf,
  soaRdata,
  transferFrom,
  zoneRow,
  type CheckResult,
  type PullMode,
  type ZoneRowSoa,
} from './transfer-from.ts'

/** What the object keeps between checks. */
interface State {
  zoneId: string
  soa: SoaTimers | null
  lastSuccess: number | null
  failures: number
  lastError: string | null
  /** When a pull for the record mapping (`remap`) last failed, in seconds; absent: never. */
  remapFailed?: number
}

const STATE = 'state'
/** After a failed pull for the record mapping, checks go on as usual this long before another. */
const REMAP_RETRY_SECONDS = 86_400
/**
 * Set by a NOTIFY, cleared when a check starts: when the last check queued ends (its commit's
 * builder step and discard included) with it set, another is scheduled as soon as
 * NOTIFY_CHECK_SPACING_MS allows. Its value is the earliest time (ms) the check may start: 0, or
 * later for a NOTIFY past its account's budget (NOTIFY_DEFER_MS); `true` (written before
 * deferrals existed) reads as 0.
 */
const PENDING_NOTIFY = 'pendingNotify'
/** When the last check that started with PENDING_NOTIFY set (not forced) began, in ms. */
const NOTIFY_CHECK_AT = 'notifyCheckAt'
/**
 * The least time between the starts of two checks of a zone that NOTIFYs asked for. Each check
 * costs a SOA query and a D1 write, and a transfer its commit, build and KV writes; a sender
 * (a forged unsigned NOTIFY from a primary's address, or a primary whose serial moves all the
 * time) could otherwise keep a zone checking back to back. A NOTIFY after a quiet interval is acted
 * on at once; one within the interval waits for its end, and all of those make one check (as BIND
 * bounds its SOA queries with `serial-query-rate`, and a BIND primary its NOTIFYs of a zone with
 * `notify-delay`, 5 seconds by default).
 */
const NOTIFY_CHECK_SPACING_MS = 5_000
/**
 * How long a check a NOTIFY asks for waits past its account's budget (NOTIFY_CHECK_LIMITER, per
 * account): a random one to ten minutes. A flood of NOTIFYs over an account's zones, forged from a
 * primary's address or from a primary whose zones all change, cannot keep them all checking, and
 * a real change still arrives within minutes, spread over them (as BIND queues its SOA queries
 * past `serial-query-rate`).
 */
export const NOTIFY_DEFER_MS = { min: 60_000, max: 600_000 }
const notifyDeferMs = (): number =>
  NOTIFY_DEFER_MS.min + Math.floor(Math.random() * (NOTIFY_DEFER_MS.max - NOTIFY_DEFER_MS.min))
/** Brings the zone's expiry flag to `expired` when it differs (a lost race is left to the next check). */
async function setExpiry(env: Env, zoneId: string, expired: boolean): Promise<void> {
  const zone = await zoneRow(env.DB, zoneId)
  if (!zone || Boolean(zone.secondary_expired) === expired) return
  try {
    const seq = await commitExpiry(env.DB, zoneId, guardOf(zone), expired)
    await builderStub(env, zoneId).notify(zoneId, seq)
  } catch (e) {
    if (!(e instanceof CommitConflict)) throw e
    console.warn('secondary zone expiry not recorded; the next check retries', zoneId, e.reason)
  }
}

/**
 * The bounds of the primary's refresh and retry: BIND's, or lower minimums from the worker's vars
 * (the end-to-end stack passes them with `--var`, test/e2e/global-setup.ts).
 */
function timerBounds(env: Env): TimerBounds {
  const seconds = (v: string | undefined, fallback: number) => {
    const n = Number(v)
    return v !== undefined && Number.isInteger(n) && n >= 1 ? n : fallback
  }
  return {
    ...DEFAULT_TIMER_BOUNDS,
    minRefresh: seconds(env.SECONDARY_MIN_REFRESH_SECONDS, DEFAULT_TIMER_BOUNDS.minRefresh),
    minRetry: seconds(env.SECONDARY_MIN_RETRY_SECONDS, DEFAULT_TIMER_BOUNDS.minRetry),
  }
}

export class SecondaryZone extends DurableObject<Env> {
  #running: Promise<unknown> = Promise.resolve()
  /** Checks queued or running. */
  #checks = 0
  /** The pull and commit from one primary; replaceable by tests (runInDurableObject). */
  transfer = transferFrom
  /** NOTIFY_CHECK_SPACING_MS; replaceable by tests. */
  notifySpacingMs = NOTIFY_CHECK_SPACING_MS
  /** Counts a NOTIFY-asked check against account `accountId`'s budget; false past it. Replaceable by tests. */
  notifyBudget = async (accountId: string): Promise<boolean> =>
    (await this.env.NOTIFY_CHECK_LIMITER.limit({ key: accountId })).success

  async #state(zoneId: string): Promise<State> {
    const saved = await this.ctx.storage.get<State>(STATE)
    return saved ?? { zoneId, soa: null, lastSuccess: null, failures: 0, lastError: null }
  }

  /**
   * How the zone's checks stand (incoming-settings.ts), read only. Without a primary's SOA saved
   * (no check since the object lost its state), the copy held expires as the next check will count
   * it (#startState), from the zone's row.
   */
  async checkStatus(zoneId: string): Promise<CheckStatus> {
    const saved = await this.ctx.storage.get<State>(STATE)
    const state = saved?.soa ? saved : await this.#stateFromZone(zoneId)
    const soa = state.soa && boundedTimers(state.soa, timerBounds(this.env))
    const confirmed = state.lastSuccess
    return {
      failures: state.failures,
      lastError: state.lastError,
      nextCheck: await this.ctx.storage.getAlarm(),
      expiresAt: soa && confirmed !== null ? (confirmed + soa.expire) * 1000 : null,
      // Only the object's own count: one started from the row would answer the row's time.
      confirmedAt: saved?.soa && confirmed !== null ? confirmed * 1000 : null,
    }
  }

  /** The state a check would start from, read from the zone's row and settings. */
  async #stateFromZone(zoneId: string): Promise<State> {
    const env = await envForZone(applyStrictLimits(this.env), zoneId)
    const cfg = await readIncoming(env.DB, zoneId)
    const zone = await zoneRow(env.DB, zoneId)
    return this.#startState(zone, zoneId, cfg?.type === 'secondary' && cfg.soaSerial !== null)
  }

  /** Checks the primaries now (`force`: a full AXFR whatever the serials say). */
  check(zoneId: string, force = false): Promise<CheckResult> {
    this.#checks++
    const run = this.#running
      .then(() => inInvocation(() => this.#check(zoneId, force)))
      .finally(() => this.#afterCheck())
    this.#running = run.catch(() => {})
    return run
  }

  /**
   * A check has ended, to its last step. A NOTIFY accepted while it ran only left the flag; unless
   * another check is queued (it starts after that NOTIFY), one more runs, as soon as the spacing
   * allows.
   */
  async #afterCheck(): Promise<void> {
    if (--this.#checks > 0) return
    if ((await this.#pendingNotify()) === undefined) return
    await this.#notifyCheckSoon()
  }

  /** The earliest start of the check a pending NOTIFY asks for (ms); undefined: none pending. */
  async #pendingNotify(): Promise<number | undefined> {
    const pending = await this.ctx.storage.get<number | boolean>(PENDING_NOTIFY)
    return pending === undefined || pending === false ? undefined : pending === true ? 0 : pending
  }

  /**
   * Brings the alarm forward to when a check a NOTIFY asks for may start: now, or
   * `notifySpacingMs` after the start of the last one, and not before the pending NOTIFY's
   * earliest start. An alarm due sooner is left as it is.
   */
  async #notifyCheckSoon(): Promise<void> {
    const last = (await this.ctx.storage.get<number>(NOTIFY_CHECK_AT)) ?? 0
    const now = Date.now()
    // A start recorded in the future (a clock set back) spaces from now instead.
    const spaced = Math.max(now, Math.min(last, now) + this.notifySpacingMs)
    const due = Math.max(spaced, (await this.#pendingNotify()) ?? 0)
    const alarm = await this.ctx.storage.getAlarm()
    if (alarm === null || alarm > due) await this.ctx.storage.setAlarm(due)
  }

  /**
   * Starts the zone's schedule when it has none (a zone whose incoming settings are new, or whose
   * object lost its alarm): a check at once. A zone already scheduled is left as it is.
   */
  async ensureScheduled(zoneId: string): Promise<boolean> {
    if ((await this.ctx.storage.getAlarm()) !== null) return false
    await this.notify(zoneId)
    return true
  }

  /**
   * A NOTIFY arrived: check soon, without holding the caller (at once after a quiet interval, else
   * at the end of the spacing interval). While a check is due or running it only leaves the flag
   * (a flood of NOTIFYs makes at most one more check). One that asks for a new check (none is
   * pending) from account `accountId`'s primary counts against the account's budget
   * (`notifyBudget`); past it, the check waits NOTIFY_DEFER_MS. One that joins a pending check
   * costs nothing: a flood for one zone cannot spend the budget of the account's other zones.
   */
  async notify(zoneId: string, accountId?: string): Promise<void> {
    if ((await this.ctx.storage.get<State>(STATE)) === undefined)
      await this.ctx.storage.put(STATE, await this.#state(zoneId))
    if ((await this.#pendingNotify()) === undefined) {
      const within = accountId === undefined || (await this.notifyBudget(accountId))
      await this.ctx.storage.put(PENDING_NOTIFY, within ? 0 : Date.now() + notifyDeferMs())
    }
    // A check under way looks at the flag when it ends.
    if (this.#checks > 0) return
    await this.#notifyCheckSoon()
  }

  override async alarm(): Promise<void> {
    const saved = await this.ctx.storage.get<State>(STATE)
    if (saved) await this.check(saved.zoneId)
  }

  async #check(zoneId: string, force: boolean): Promise<CheckResult> {
    // A NOTIFY from here on is after this check's SOA query began: it asks for another check. A
    // check that answers a NOTIFY starts the spacing interval; a forced one neither waits for it
    // nor starts it.
    if ((await this.ctx.storage.delete(PENDING_NOTIFY)) && !force)
      await this.ctx.storage.put(NOTIFY_CHECK_AT, Date.now())
    const env = await envForZone(applyStrictLimits(this.env), zoneId)
    const cfg = await readIncoming(env.DB, zoneId)
    if (!cfg || cfg.type !== 'secondary') {
      await this.ctx.storage.deleteAll()
      return { status: 'not-secondary' }
    }
    const zone = await zoneRow(env.DB, zoneId)
    // No copy recorded (`soa_serial` NULL): the zone holds no copy of the primary's.
    const loaded = cfg.soaSerial !== null
    const state = await this.#startState(zone, zoneId, loaded)
    // The copy held is the primary's version `soa_serial` while the zone's serial is that one; a
    // zone that was another type since (or whose serial moved) is pulled whole.
    const held = zone?.serial === cfg.soaSerial ? cfg.soaSerial : null
    let result: CheckResult = { status: 'failed', error: 'the zone has no primary with an address' }
    let finishing: Promise<void> | undefined
    // A copy from a primary the settings no longer name is pulled whole: serials are a server's.
    // One that lacks records an earlier record mapping left out is pulled whole when it can be.
    const remapDue = Date.now() / 1000 - (state.remapFailed ?? 0) >= REMAP_RETRY_SECONDS
    const mode: PullMode =
      force || fromAnotherPrimary(zone, cfg.primaries)
        ? 'axfr'
        : mappedBefore(zone) && remapDue
          ? 'remap'
          : 'check'
    for (const primary of cfg.primaries) {
      try {
        const { finishing: after, ...attempt } = await this.#pull(
          env,
          { ...cfg, soaSerial: held },
          primary,
          mode,
          state
        )
        result = attempt
        finishing = after
        if (result.status !== 'failed') break
      } catch (e) {
        result = { status: 'failed', error: String((e as Error).message ?? e) }
        console.warn('secondary zone check failed', zoneId, primary.ip, result.error)
      }
    }
    if (result.status === 'not-secondary') {
      await this.ctx.storage.deleteAll()
      return result
    }
    const now = Math.floor(Date.now() / 1000)
    const good = result.status !== 'failed'
    if (!good) {
      state.failures++
      state.lastError = result.error ?? null
    } else {
      state.failures = 0
      state.lastSuccess = now
      state.lastError = null
      const copy = await zoneRow(env.DB, zoneId)
      if (copy) state.soa = soaTimers(soaRdata(copy))
    }
    const next = schedule({
      now,
      autoRefresh: cfg.autoRefreshSeconds,
      soa: state.soa,
      lastSuccess: state.lastSuccess,
      failures: state.failures,
      bounds: timerBounds(this.env),
    })
    await this.ctx.storage.put(STATE, state)
    // A NOTIFY that came during the check moves this alarm forward once the check ends (#afterCheck).
    await this.ctx.storage.setAlarm(next.next * 1000)
    // Only a good check makes the zone answer (again); a failed one can only expire it, or mark
    // not loaded a zone that has no transfer recorded and still answers (a zone row from before
    // `secondary_expired` marked new secondary zones).
    const expired = next.expired || (!good && !loaded)
    if (expired || good) await setExpiry(env, zoneId, expired)
    await finishing
    return result
  }

  /**
   * One primary's pull; a `remap` pull that fails (a primary that refuses AXFR, a zone too large)
   * is followed by the usual check, so the copy is confirmed or brought up to date as before, and
   * the checks of the next REMAP_RETRY_SECONDS do not try it again (`state.remapFailed`).
   */
  async #pull(env: Env, cfg: IncomingConfig, primary: Primary, mode: PullMode, state: State) {
    if (mode !== 'remap') return this.transfer(env, cfg, primary, mode)
    try {
      const attempt = await this.transfer(env, cfg, primary, 'remap')
      if (attempt.status !== 'failed') return attempt
    } catch (e) {
      console.warn('secondary zone: pulling the copy whole failed', cfg.zoneId, String(e))
    }
    state.remapFailed = Math.floor(Date.now() / 1000)
    return this.transfer(env, cfg, primary, 'check')
  }

  /**
   * The saved state. Without a transfer recorded (`loaded` false), the zone's SOA is ours, not a
   * primary's: no copy counts as checked, and failed checks follow the first transfer's retry.
   * Without a saved state (a new schedule: new settings, or the state cleared while there were
   * none), a zone that answers and has a transfer counts its copy as checked when a primary last
   * confirmed it (held-copy.ts; else now), so it expires the SOA's expire after that.
   */
  async #startState(zone: ZoneRowSoa | null, zoneId: string, loaded: boolean): Promise<State> {
    const state = await this.#state(zoneId)
    if (!loaded) return { ...state, soa: null, lastSuccess: null }
    if (state.soa || !zone || zone.secondary_expired) return state
    const lastSuccess = confirmedAt(zone) ?? Math.floor(Date.now() / 1000)
    return { ...state, soa: soaTimers(soaRdata(zone)), lastSuccess }
  }
}
