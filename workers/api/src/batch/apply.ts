/**
 * @module The batch engine: load once, plan in memory, write in one D1 batch; re-plan on a lost race.
 * Every record write in the API (single-record endpoints, batch, import) goes through here.
 */
import { retryOnConflict } from '../commit/conflict-retry.ts'
import { commitZoneChange } from '../commit/zone-change.ts'
import { accountMovingError } from '../shards/zone-shard.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import { nowIso, recordIdGenerator } from '../http/ids.ts'
import { loadForBatch } from './load.ts'
import { planBatch, type Plan } from './plan.ts'
import type { BatchRequest } from './request.ts'
import { writeStatements } from './write.ts'

export interface ApplyTarget {
  zoneId: string
  zoneName: string
  tokenId: string
}

/** Milliseconds spent in each phase of the last attempt, for the Server-Timing header. */
interface PhaseTimings {
  load: number
  plan: number
  write: number
}

export interface Applied {
  timings: PhaseTimings
  plan: Plan
  /** Change-log sequence this batch committed up to (unchanged when nothing changed). */
  seq: number
  attempts: number
}

const MAX_ATTEMPTS = 12

export async function applyBatch(
  db: D1Database,
  target: ApplyTarget,
  req: BatchRequest,
  pointers: boolean
): Promise<Applied> {
  return retryOnConflict(
    {
      maxAttempts: MAX_ATTEMPTS,
      what: 'batch',
      // Full jitter, exponential: spreads writers that keep colliding on a hot zone.
      backoffMs: (attempt) => Math.random() * Math.min(250, 4 * 2 ** attempt),
    },
    async (attempt) => {
      const t0 = performance.now()
      const loaded = await loadForBatch(db, target.zoneId, target.zoneName, req)
      if (!loaded) {
        // Found when the request was routed, gone on a retry: deleted, or its account moved shards.
        if (attempt > 1) {
          throw new ApiError(
            409,
            Codes.conflictRetry,
            'The zone was deleted or moved to another database shard while this batch was being applied; nothing was changed. Retry the request.'
          )
        }
        throw new ApiError(404, Codes.zoneNotFound, 'Zone not found')
      }
      if (loaded.moving) throw accountMovingError()
      const t1 = performance.now()
      const now = nowIso()
      const plan = planBatch(req, loaded.records, {
        zoneId: target.zoneId,
        zoneName: target.zoneName,
        now,
        newId: recordIdGenerator(),
        pointers,
      })
      const t2 = performance.now()
      if (plan.changes.length === 0)
        return {
          plan,
          seq: loaded.guard.changeSeq,
          attempts: attempt,
          timings: { load: t1 - t0, plan: t2 - t1, write: 0 },
        }
      const stmts = writeStatements(
        db,
        { zoneId: target.zoneId, guard: loaded.guard, tokenId: target.tokenId, now },
        plan.changes
      )
      await commitZoneChange(db, stmts)
      const timings = { load: t1 - t0, plan: t2 - t1, write: performance.now() - t2 }
      return { plan, seq: loaded.guard.changeSeq + plan.changes.length, attempts: attempt, timings }
    }
  )
}
