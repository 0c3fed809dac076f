import { describe, expect, it } from 'vitest'
import {
  boundedTimers,
  DEFAULT_TIMER_BOUNDS,
  FIRST_TRANSFER_RETRY,
  schedule,
  soaTimers,
} from './index.ts'
import { MAX_EXPIRE } from './schedule.ts'

const soa = soaTimers('ns1.example. admin.example. 9 7200 900 86400 300')
const T = 1_800_000_000

describe('when a secondary zone checks its primary', () => {
  it('reads refresh, retry and expire from SOA rdata', () => {
    expect(soa).toEqual({ refresh: 7200, retry: 900, expire: 86400 })
  })

  it('retries soon before the first transfer, and is not expired', () => {
    const s = schedule({ now: T, autoRefresh: 86400, soa: null, lastSuccess: null, failures: 0 })
    expect(s).toEqual({ next: T + FIRST_TRANSFER_RETRY, expired: false })
  })

  it('before the first transfer, doubles the retry with each failure, up to an hour', () => {
    const next = (failures: number, autoRefresh = 86400) =>
      schedule({ now: T, autoRefresh, soa: null, lastSuccess: null, failures }).next - T
    expect([1, 2, 3, 4, 5, 6, 7, 8, 40].map((f) => next(f))).toEqual([
      60, 120, 240, 480, 960, 1920, 3600, 3600, 3600,
    ])
    expect(next(8, 600)).toBe(600) // the zone's own refresh setting when shorter
  })

  it('after a good check: the SOA refresh, or auto_refresh_seconds when shorter', () => {
    expect(schedule({ now: T, autoRefresh: 86400, soa, lastSuccess: T, failures: 0 })).toEqual({
      next: T + 7200,
      expired: false,
    })
    expect(schedule({ now: T, autoRefresh: 600, soa, lastSuccess: T, failures: 0 }).next).toBe(
      T + 600
    )
  })

  it('after a failed check: the SOA retry', () => {
    const s = schedule({ now: T + 8000, autoRefresh: 86400, soa, lastSuccess: T, failures: 2 })
    expect(s).toEqual({ next: T + 8900, expired: false })
  })

  it('wakes at the expiry instant, then is expired until a good check', () => {
    const short = { ...soa, expire: 9000 }
    const before = schedule({
      now: T + 8500,
      autoRefresh: 86400,
      soa: short,
      lastSuccess: T,
      failures: 1,
    })
    expect(before).toEqual({ next: T + 9000, expired: false })
    const after = schedule({
      now: T + 9000,
      autoRefresh: 86400,
      soa: short,
      lastSuccess: T,
      failures: 2,
    })
    expect(after).toEqual({ next: T + 9900, expired: true })
    const again = schedule({
      now: T + 9900,
      autoRefresh: 86400,
      soa: short,
      lastSuccess: T + 9900,
      failures: 0,
    })
    expect(again.expired).toBe(false)
  })
})

describe("a primary's SOA timers are bounded (as BIND bounds them)", () => {
  const bounds = DEFAULT_TIMER_BOUNDS

  it('a refresh of 0 does not make the next check immediate: at least min-refresh-time', () => {
    const timers = { refresh: 0, retry: 600, expire: 86400 }
    const s = schedule({ now: T, autoRefresh: 3600, soa: timers, lastSuccess: T, failures: 0 })
    expect(s).toEqual({ next: T + bounds.minRefresh, expired: false })
  })

  it('a retry of 0 does not re-run a failed check at once: at least min-retry-time', () => {
    const timers = { refresh: 3600, retry: 0, expire: 86400 }
    const s = schedule({ now: T, autoRefresh: 3600, soa: timers, lastSuccess: T - 10, failures: 1 })
    expect(s.next).toBe(T + bounds.minRetry)
  })

  it('an expire of 0 does not expire a zone checked just now: at least refresh + retry', () => {
    const timers = { refresh: 3600, retry: 600, expire: 0 }
    const good = schedule({ now: T, autoRefresh: 86400, soa: timers, lastSuccess: T, failures: 0 })
    expect(good).toEqual({ next: T + 3600, expired: false })
    const failing = { autoRefresh: 86400, soa: timers, lastSuccess: T, failures: 1 }
    expect(schedule({ ...failing, now: T + 4199 }).expired).toBe(false)
    expect(schedule({ ...failing, now: T + 4200 }).expired).toBe(true)
  })

  it('before the first transfer the retry starts at a minute; a SOA held without a good check is bounded too', () => {
    const none = schedule({ now: T, autoRefresh: 300, soa: null, lastSuccess: null, failures: 1 })
    expect(none.next).toBe(T + FIRST_TRANSFER_RETRY)
    const held = { refresh: 0, retry: 0, expire: 0 }
    const s = schedule({ now: T, autoRefresh: 86400, soa: held, lastSuccess: null, failures: 1 })
    expect(s).toEqual({ next: T + bounds.minRetry, expired: true })
  })

  it('clamps each timer within its bounds, the expire within refresh + retry and 24 weeks', () => {
    expect(boundedTimers({ refresh: 0, retry: 0, expire: 0 })).toEqual({
      refresh: 300,
      retry: 500,
      expire: 800,
    })
    expect(
      boundedTimers({ refresh: 2 ** 32 - 1, retry: 2 ** 32 - 1, expire: 2 ** 32 - 1 })
    ).toEqual({ refresh: 28 * 86400, retry: 14 * 86400, expire: MAX_EXPIRE })
    expect(boundedTimers({ refresh: 7200, retry: 900, expire: 1_209_600 })).toEqual({
      refresh: 7200,
      retry: 900,
      expire: 1_209_600,
    })
    expect(boundedTimers({ refresh: NaN, retry: 900, expire: 86400 }).refresh).toBe(300)
  })

  it('takes other bounds (a local stack with short timers)', () => {
    const short = { minRefresh: 1, maxRefresh: 60, minRetry: 1, maxRetry: 60 }
    expect(boundedTimers({ refresh: 3, retry: 2, expire: 4 }, short)).toEqual({
      refresh: 3,
      retry: 2,
      expire: 5,
    })
    const s = schedule({
      now: T,
      autoRefresh: 300,
      soa: { refresh: 3, retry: 2, expire: 8 },
      lastSuccess: T,
      failures: 0,
      bounds: short,
    })
    expect(s).toEqual({ next: T + 3, expired: false })
  })
})
