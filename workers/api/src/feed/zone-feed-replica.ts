/**
 * @module ZoneFeedReplica Durable Object: answers isolates' polls from memory (a `FeedRing` pulled
 * from the primary with `tail`), so the primary sees each replica's pulls instead of every
 * isolate's polls. Named `replica:<region>:<k>` by its callers; it keeps nothing in storage.
 */
import { FeedRing, released, type PollReply, type PollRequest } from '@edgedns/zone-feed'
import { DurableObject } from 'cloudflare:workers'
import { primaryFeed } from './zone-feed.ts'

/** A poll is answered from a pull at most this old (ms) unless `FEED_REPLICA_MAX_AGE_MS` says otherwise. */
const DEFAULT_REPLICA_MAX_AGE_MS = 200

function replicaMaxAgeMs(env: { FEED_REPLICA_MAX_AGE_MS?: string }): number {
  const v = Number(env.FEED_REPLICA_MAX_AGE_MS)
  return env.FEED_REPLICA_MAX_AGE_MS !== undefined && Number.isFinite(v) && v >= 0
    ? v
    : DEFAULT_REPLICA_MAX_AGE_MS
}

export class ZoneFeedReplica extends DurableObject<Env> {
  /** Replaceable by tests (max age, clock) through runInDurableObject. */
  ring: FeedRing

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    const primary = primaryFeed(env)
    this.ring = new FeedRing(
      {
        tail: async (request) => released(await primary.tailAfter(request)),
        poll: async (request) => released(await primary.poll(request)),
      },
      { maxAgeMs: replicaMaxAgeMs(env) }
    )
  }

  async poll(request: PollRequest): Promise<PollReply> {
    return this.ring.poll(request)
  }
}
