/**
 * @module Zone purge after `zone_delete`: first the zone-change feed learns that the zone is gone
 * (`delete` entry naming its last head; the purge waits, retrying with backoff, until the feed
 * has it, so no reader is told of a head whose keys are already deleted), then every bucket key
 * (every count and version) and overlay key (KV list by prefix), the head slots and the zone key
 * are deleted. Versioned head keys are left to expire. Zone names can be reused: when a live zone holds the name, its keys are not deleted
 * here and that zone gets a full build request instead (which also removes this zone's leftovers).
 * Deletes are writes: each key is paced to one write per second like the passes' writes (a zone
 * deleted right after a change waits out the interval of the keys that change wrote).
 */
import { bucketPrefix, headKeys, overlayPrefix, zoneKey } from '@edgedns/kv-layout'
import type { BuilderBinding } from '../commit/zone-change.ts'
import type { StepContext, StepOutcome } from './context.ts'
import { lastLoggedSeq, liveZoneNamed } from './queries.ts'
import { requestFullBuild } from './request-full.ts'
import { shardCount } from '../shards/databases.ts'
import { liveZoneIdNamed } from '../shards/zone-env.ts'
import { appendPending } from './feed.ts'
import { ALWAYS, applyOps } from './writer.ts'

export interface PurgeEnv extends BuilderBinding {
  DB: D1Database
}

/** A live zone holding the name now: on any shard (the directory) when there are several. */
function successorNamed(env: PurgeEnv, db: D1Database, name: string): Promise<string | null> {
  return shardCount(env) > 1 ? liveZoneIdNamed(env, name) : liveZoneNamed(db, name)
}

export async function startPurge(ctx: StepContext): Promise<void> {
  const { state } = ctx
  state.full = null
  state.fullRequested = false
  state.purge = { seq: await lastLoggedSeq(ctx.io.db, state.zoneId!), listCursor: null }
  ctx.save()
}

export async function purgeStep(ctx: StepContext, env: PurgeEnv): Promise<StepOutcome> {
  const { state, io } = ctx
  const purge = state.purge!
  const name = state.zoneName
  const started = io.now()
  let deletes = 0
  const paced = { freshSince: ALWAYS, intervalMs: ctx.limits.keyWriteIntervalMs }
  if (name !== null && !purge.announced && io.feed !== null) {
    // Replaces a head entry still pending: the delete supersedes it.
    if (state.feedPending?.op !== 'delete') {
      state.feedPending = {
        zone: name,
        id: state.zoneId!,
        n: Math.max(state.head.n, state.headAttempt),
        op: 'delete',
      }
      ctx.save()
    }
    const now = io.now()
    if (state.feedFailures > 0 && now < state.feedRetryAt)
      return { kind: 'deferred', until: state.feedRetryAt }
    if (!(await appendPending(ctx))) return { kind: 'deferred', until: state.feedRetryAt }
  }
  if (!purge.announced) {
    purge.announced = true
    ctx.save()
  }
  if (name !== null) {
    const successor = await successorNamed(env, io.db, name)
    if (successor === null) {
      // Every bucket key of any bucket count, then every overlay key.
      const prefixes = [bucketPrefix(name), overlayPrefix(name)]
      for (let stage = purge.stage ?? 0; stage < prefixes.length; stage++) {
        const prefix = prefixes[stage]!
        for (;;) {
          const limit = Math.min(ctx.limits.listPage, ctx.budget.remaining - 2)
          if (limit < 1 || (ctx.budget.used > 0 && limit < Math.min(ctx.limits.listPage, 50)))
            return { kind: 'progress' }
          ctx.budget.spend(1)
          const listed = await io.kv.list({
            prefix,
            limit,
            ...(purge.listCursor ? { cursor: purge.listCursor } : {}),
          })
          const ops = listed.keys.map((k) => ({ key: k.name, value: null }))
          // Paced like every other write: a key the last pass wrote under a second ago waits. The
          // list cursor is not advanced, so the same page is listed again when the wait is over.
          const written = await applyOps(io, ctx.ledger, ctx.budget, ops, paced)
          if (written.kind === 'deferred') return written
          deletes += written.deletes
          if (listed.list_complete) break
          purge.listCursor = listed.cursor
          ctx.save()
        }
        purge.stage = stage + 1
        purge.listCursor = null
        ctx.save()
      }
    }
    // Checked again after the deletes: a zone created meanwhile may have lost keys to them.
    const now = successor ?? (await successorNamed(env, io.db, name))
    if (now === null) {
      const last = [
        ...headKeys(name).map((key) => ({ key, value: null })),
        { key: zoneKey(name), value: null },
      ]
      if (ctx.budget.remaining < last.length) return { kind: 'progress' }
      const written = await applyOps(io, ctx.ledger, ctx.budget, last, paced)
      if (written.kind === 'deferred') return written
      deletes += written.deletes
    } else if (now !== state.zoneId) await requestFullBuild(env, now, (p) => void p.catch(() => {}))
  }
  state.cursor = Math.max(state.cursor, purge.seq)
  state.purge = null
  state.deleted = true
  state.builtAt = io.now()
  state.passes++
  state.lastPass = {
    kind: 'purge',
    at: state.builtAt,
    ms: state.builtAt - started,
    changes: 1,
    names: deletes,
    puts: 0,
    deletes,
    skipped: 0,
  }
  ctx.ledger.clear()
  ctx.mirror.clear()
  ctx.versions.clear()
  state.layout = null
  state.retire = []
  state.format = 0
  state.head = { n: 0, meta: null, changed: [] }
  state.headAttempt = 0
  state.zonePending = null
  state.announce = true // ancestor zones drop it from their subzones
  state.overlayKeys = []
  state.namedOverlay = null
  state.versionsTable = null
  ctx.save()
  return { kind: 'idle' }
}
