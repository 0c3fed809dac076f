/**
 * @module When a secondary zone checks its primary next, and whether it has expired (RFC 1035
 * §4.3.5): after a good check, the refresh interval (the SOA's refresh, or the zone's own refresh
 * setting when that is shorter); after a failed one, the SOA's retry; and once no check has
 * succeeded for the SOA's expire interval, the zone is expired and must not be answered until a
 * check succeeds again. Times are seconds since the epoch.
 *
 * The SOA's timers are the primary's, so they are bounded as BIND bounds them (its
 * min-refresh-time, max-refresh-time, min-retry-time and max-retry-time defaults; the expire at
 * least refresh + retry and at most 24 weeks): a refresh or retry of 0 would make the checks loop
 * against the primary, an expire of 0 would expire the zone right after a good check.
 */

export interface SoaTimers {
  refresh: number
  retry: number
  expire: number
}

export interface ScheduleInput {
  now: number
  /** The zone's auto_refresh_seconds. */
  autoRefresh: number
  /** The timers of the SOA we hold; null before the first transfer. */
  soa: SoaTimers | null
  /** The last check that reached the primary and left the zone current; null: never. */
  lastSuccess: number | null
  /** Failed checks since then. */
  failures: number
  /** Bounds of the SOA's refresh and retry (default `DEFAULT_TIMER_BOUNDS`). */
  bounds?: TimerBounds
}

export interface Schedule {
  /** When to check next. */
  next: number
  /** True when the zone must not be answered now. */
  expired: boolean
}

/**
 * Retry interval before the zone has a SOA of its own, after its first failed check; it doubles
 * with each failure after that, up to FIRST_TRANSFER_MAX_RETRY: a primary that is being set up is
 * followed closely, one that keeps failing (or keeps sending a transfer that is refused, a
 * hostile one included, after staging up to millions of records) costs a check an hour. A NOTIFY
 * or `force_axfr` checks at once whatever the interval.
 */
export const FIRST_TRANSFER_RETRY = 60
/** The longest retry interval before the zone has a SOA of its own. */
const FIRST_TRANSFER_MAX_RETRY = 3600

/** The bounds of a primary's refresh and retry, in seconds (BIND's option names). */
export interface TimerBounds {
  minRefresh: number
  maxRefresh: number
  minRetry: number
  maxRetry: number
}

/** BIND's defaults: refresh within 5 minutes and 4 weeks, retry within 500 seconds and 2 weeks. */
export const DEFAULT_TIMER_BOUNDS: TimerBounds = {
  minRefresh: 300,
  maxRefresh: 28 * 86400,
  minRetry: 500,
  maxRetry: 14 * 86400,
}

/** The longest expire honoured (BIND's): 24 weeks. */
export const MAX_EXPIRE = 24 * 7 * 86400

const within = (v: number, lo: number, hi: number): number =>
  Number.isFinite(v) ? Math.min(Math.max(v, lo), hi) : lo

/** A primary's timers within `bounds`; the expire at least refresh + retry, at most `MAX_EXPIRE`. */
export function boundedTimers(soa: SoaTimers, bounds = DEFAULT_TIMER_BOUNDS): SoaTimers {
  const refresh = within(soa.refresh, bounds.minRefresh, bounds.maxRefresh)
  const retry = within(soa.retry, bounds.minRetry, bounds.maxRetry)
  const floor = refresh + retry
  return { refresh, retry, expire: within(soa.expire, floor, Math.max(floor, MAX_EXPIRE)) }
}

/** The next check and the expiry state; see the module comment. */
export function schedule(s: ScheduleInput): Schedule {
  const soa = s.soa && boundedTimers(s.soa, s.bounds)
  if (!soa || s.lastSuccess === null) {
    const backoff = FIRST_TRANSFER_RETRY * 2 ** Math.min(Math.max(s.failures - 1, 0), 10)
    const retry = soa?.retry ?? Math.min(backoff, FIRST_TRANSFER_MAX_RETRY)
    return { next: s.now + Math.min(retry, s.autoRefresh), expired: soa !== null }
  }
  const expiresAt = s.lastSuccess + soa.expire
  const expired = s.now >= expiresAt
  const next =
    s.failures > 0 ? s.now + soa.retry : s.lastSuccess + Math.min(s.autoRefresh, soa.refresh)
  // Wake up at the expiry instant too, so the zone stops answering on time.
  return { next: expired ? next : Math.min(next, expiresAt), expired }
}

/** Refresh, retry and expire of SOA presentation rdata. */
export function soaTimers(rdata: string): SoaTimers {
  const parts = rdata.trim().split(/\s+/)
  if (parts.length !== 7) throw new RangeError(`not SOA rdata: ${rdata}`)
  return { refresh: Number(parts[3]), retry: Number(parts[4]), expire: Number(parts[5]) }
}
