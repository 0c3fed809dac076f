/**
 * @module The builder's outside world (KV, D1, the zone-change feed, clock) behind one seam, so
 * tests can wrap it to inject failures or count operations.
 */
import type { AppendReply, FeedAppend, FeedAppender, OfferedHead } from '@edgedns/zone-feed'

export interface BuilderIo {
  kv: KVNamespace
  db: D1Database
  /** The feed's primary (null: no feed bound; readers use the head slots alone). */
  feed: FeedAppender | null
  now(): number
}

/** The feed primary's namespace as the builder uses it (RPC `append`, `offer`). */
interface FeedNamespace {
  idFromName(name: string): DurableObjectId
  get(id: DurableObjectId): {
    append(entries: FeedAppend[]): Promise<AppendReply | void>
    offer(heads: OfferedHead[]): Promise<void>
  }
}

/**
 * Whether the primary said at this isolate's last append that isolates watch it (they poll it
 * directly, as `wrangler dev` does; deployed isolates poll replicas and nobody watches).
 */
let primaryWatched = false

export interface BuilderEnv {
  ZONES_KV: KVNamespace
  DB: D1Database
  /** The zone-change feed (absent: heads are not announced; readers confirm them by slot). */
  ZONE_FEED?: FeedNamespace
}

export function ioFrom(env: BuilderEnv): BuilderIo {
  const ns = env.ZONE_FEED
  const feed: FeedAppender | null = ns
    ? {
        async append(entries) {
          const reply = await ns.get(ns.idFromName('primary')).append(entries)
          primaryWatched = reply?.watched === true
        },
        async offer(heads) {
          if (!primaryWatched) return false
          await ns.get(ns.idFromName('primary')).offer(heads)
          return true
        },
      }
    : null
  return { kv: env.ZONES_KV, db: env.DB, feed, now: () => Date.now() }
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
