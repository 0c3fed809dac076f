/**
 * @module The builder's outside world (KV, D1, clock) behind one seam, so tests can wrap it to
 * inject failures or count operations.
 */

export interface BuilderIo {
  kv: KVNamespace
  db: D1Database
  now(): number
}

export function ioFrom(env: { ZONES_KV: KVNamespace; DB: D1Database }): BuilderIo {
  return { kv: env.ZONES_KV, db: env.DB, now: () => Date.now() }
}

/** Counts KV operations of one invocation and tells when the budget is spent. */
export class KvBudget {
  used = 0
  constructor(readonly max: number) {}

  get remaining(): number {
    return this.max - this.used
  }

  spend(n: number): void {
    this.used += n
  }
}
