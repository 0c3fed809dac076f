import { describe, expect, it } from 'vitest'
import { FIRST_TRANSFER_RETRY, schedule, soaTimers } from './index.ts'

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
    const short = { ...soa, expire: 1000 }
    const before = schedule({
      now: T + 500,
      autoRefresh: 86400,
      soa: short,
      lastSuccess: T,
      failures: 1,
    })
    expect(before).toEqual({ next: T + 1000, expired: false })
    const after = schedule({
      now: T + 1000,
      autoRefresh: 86400,
      soa: short,
      lastSuccess: T,
      failures: 2,
    })
    expect(after).toEqual({ next: T + 1900, expired: true })
    const again = schedule({
      now: T + 1900,
      autoRefresh: 86400,
      soa: short,
      lastSuccess: T + 1900,
      failures: 0,
    })
    expect(again.expired).toBe(false)
  })
})
