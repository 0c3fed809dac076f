/**
 * @module When a secondary zone checks its primary next, and whether it has expired (RFC 1035
 * §4.3.5): after a good check, the refresh interval (the SOA's refresh, or the zone's own refresh
 * setting when that is shorter); after a failed one, the SOA's retry; and once no check has
 * succeeded for the SOA's expire interval, the zone is expired and must not be answered until a
 * check succeeds again. Times are seconds since the epoch.
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
}

export interface Schedule {
  /** When to check next. */
  next: number
  /** True when the zone must not be answered now. */
  expired: boolean
}

/** Retry interval before the zone has a SOA of its own. */
export const FIRST_TRANSFER_RETRY = 60

/** The next check and the expiry state; see the module comment. */
export function schedule(s: ScheduleInput): Schedule {
  if (!s.soa || s.lastSuccess === null) {
    const retry = s.soa?.retry ?? FIRST_TRANSFER_RETRY
    return { next: s.now + Math.min(retry, s.autoRefresh), expired: s.soa !== null }
  }
  const expiresAt = s.lastSuccess + s.soa.expire
  const expired = s.now >= expiresAt
  const next =
    s.failures > 0 ? s.now + s.soa.retry : s.lastSuccess + Math.min(s.autoRefresh, s.soa.refresh)
  // Wake up at the expiry instant too, so the zone stops answering on time.
  return { next: expired ? next : Math.min(next, expiresAt), expired }
}

/** Refresh, retry and expire of SOA presentation rdata. */
export function soaTimers(rdata: string): SoaTimers {
  const parts = rdata.trim().split(/\s+/)
  if (parts.length !== 7) throw new RangeError(`not SOA rdata: ${rdata}`)
  return { refresh: Number(parts[3]), retry: Number(parts[4]), expire: Number(parts[5]) }
}
