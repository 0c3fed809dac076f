/**
 * @module Propagation: how far the zone's builder got (`built_seq`) compared with what was
 * committed (`committed_seq`), and waiting until a write is served by DoH.
 */
import { EdgeDnsError } from './errors.ts'
import type { Transport } from './http.ts'
import type { Propagation } from './types.ts'

export interface WaitOptions {
  /** Give up after this long (default 30 s). */
  timeoutMs?: number
  /** Delay between polls (default 100 ms, doubling up to 1 s). */
  intervalMs?: number
  signal?: AbortSignal
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export class PropagationApi {
  private readonly t: Transport

  constructor(t: Transport) {
    this.t = t
  }

  status(zoneId: string): Promise<Propagation> {
    return this.t.result({ method: 'GET', path: `/zones/${zoneId}/propagation` })
  }

  /** Requests a full rebuild of the zone; returns the change-log sequence to wait for. */
  rebuild(zoneId: string): Promise<{ seq: number }> {
    return this.t.result({ method: 'POST', path: `/zones/${zoneId}/propagation/rebuild` })
  }

  /**
   * Resolves once the zone's built sequence reaches `seq` (the `changeSeq` of a write; default
   * the client's last write), i.e. the change is in KV and answered by DoH. A pending zone is not
   * built until it is activated, so waiting for it throws at once (kind `pending`).
   */
  async wait(
    zoneId: string,
    seq: number | undefined = this.t.lastChangeSeq,
    opts: WaitOptions = {}
  ): Promise<Propagation> {
    if (seq === undefined)
      throw new RangeError('waitForPropagation needs a change sequence (no write seen yet)')
    const deadline = Date.now() + (opts.timeoutMs ?? 30_000)
    let delay = opts.intervalMs ?? 100
    for (;;) {
      const p = await this.status(zoneId)
      if (p.status === 'pending')
        throw new EdgeDnsError({
          kind: 'pending',
          status: 0,
          code: 0,
          message: `zone ${zoneId} is pending: nothing of it is built until it is activated (zones.activationCheck)${p.message ? `; the API says: ${p.message}` : ''}`,
        })
      if (p.built_seq >= seq) return p
      if (opts.signal?.aborted)
        throw new EdgeDnsError({
          kind: 'timeout',
          status: 0,
          code: 0,
          message: 'waitForPropagation aborted',
        })
      if (Date.now() + delay > deadline) {
        throw new EdgeDnsError({
          kind: 'timeout',
          status: 0,
          code: 0,
          message: `zone ${zoneId} not propagated to seq ${seq} within ${opts.timeoutMs ?? 30_000} ms (built ${p.built_seq}, committed ${p.committed_seq}${p.last_error ? `, last error: ${p.last_error.message}` : ''})`,
        })
      }
      await sleep(delay)
      delay = Math.min(1000, delay * 2)
    }
  }
}
