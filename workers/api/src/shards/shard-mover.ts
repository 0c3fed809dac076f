/**
 * @module ShardMover: one Durable Object per account that runs the account's move to another D1
 * shard (move.ts) in the background. The job lives in the object's own storage and an alarm
 * drives it: each alarm is one step within one invocation's D1 query budget, saved after every
 * unit of work, and schedules the next. After a crash (the runtime killed mid-step) the alarm,
 * persisted with the object, runs again and the step resumes from the last saved unit; reading
 * the status also re-arms a running job's alarm, should none be set.
 */
import { DurableObject } from 'cloudflare:workers'
import { applyStrictLimits, inInvocation } from '@edgedns/strict-bindings'
import { MoveRefused, type MoveJob } from './move-job.ts'
import { moveStep, planMove, stepBudgetOf } from './move.ts'

const JOB = 'job'
/** Longest wait before a failed step is tried again. */
const MAX_RETRY_MS = 60_000

/** What the API answers about a move. */
export interface MoveStatus {
  account_id: string
  from: number
  shard: number
  status: 'running' | 'done'
  phase: MoveJob['phase']
  steps: number
  zones: number
  records: number
  changes: number
  caught_up: number
  started_on: string
  fenced_on: string | null
  finished_on: string | null
  epoch: number | null
  last_error: string | null
}

export type StartResult = { ok: true; move: MoveStatus } | { ok: false; refused: string }

function moveStatusOf(job: MoveJob): MoveStatus {
  return {
    account_id: job.accountId,
    from: job.from,
    shard: job.to,
    status: job.phase === 'done' ? 'done' : 'running',
    phase: job.phase,
    steps: job.steps,
    zones: job.zones,
    records: job.records,
    changes: job.changes,
    caught_up: job.caughtUp,
    started_on: job.startedOn,
    fenced_on: job.fencedOn,
    finished_on: job.finishedOn,
    epoch: job.epoch,
    last_error: job.lastError,
  }
}

export class ShardMover extends DurableObject<Env> {
  #failures = 0

  async #job(): Promise<MoveJob | null> {
    return (await this.ctx.storage.get<MoveJob>(JOB)) ?? null
  }

  /** Starts moving `accountId` to shard `to`, unless a move of it is under way or the request is refused. */
  start(accountId: string, to: number): Promise<StartResult> {
    // Nothing else runs on the object meanwhile: two starts cannot both plan a job, nor an alarm
    // step a job that is being replaced.
    return this.ctx.blockConcurrencyWhile(() => this.#start(accountId, to))
  }

  #start(accountId: string, to: number): Promise<StartResult> {
    return inInvocation(async (): Promise<StartResult> => {
      const current = await this.#job()
      if (current && current.phase !== 'done')
        return {
          ok: false,
          refused: `account ${accountId} is being moved already (to shard ${current.to}); see GET /accounts/${accountId}/shard`,
        }
      try {
        const job = await planMove(applyStrictLimits(this.env), accountId, to)
        await this.ctx.storage.put(JOB, job)
        await this.ctx.storage.setAlarm(Date.now())
        return { ok: true, move: moveStatusOf(job) }
      } catch (e) {
        if (e instanceof MoveRefused) return { ok: false, refused: e.message }
        throw e
      }
    })
  }

  /** The last move's status (null when the account was never moved); re-arms a running job. */
  async status(): Promise<MoveStatus | null> {
    const job = await this.#job()
    if (!job) return null
    if (job.phase !== 'done' && (await this.ctx.storage.getAlarm()) === null)
      await this.ctx.storage.setAlarm(Date.now())
    return moveStatusOf(job)
  }

  override async alarm(): Promise<void> {
    const job = await this.#job()
    if (!job || job.phase === 'done') return
    await inInvocation(async () => {
      try {
        const after = await moveStep(
          applyStrictLimits(this.env),
          job,
          (j) => this.ctx.storage.put(JOB, j),
          stepBudgetOf(this.env)
        )
        this.#failures = 0
        if (after.phase !== 'done') await this.ctx.storage.setAlarm(Date.now())
      } catch (e) {
        // Never dropped: the error is kept for the status and the step is tried again later.
        console.error('account move step failed', job.accountId, e)
        const saved = (await this.#job()) ?? job
        await this.ctx.storage.put(JOB, { ...saved, lastError: String((e as Error).message ?? e) })
        this.#failures++
        await this.ctx.storage.setAlarm(
          Date.now() + Math.min(MAX_RETRY_MS, 500 * 2 ** this.#failures)
        )
      }
    })
  }
}
