/**
 * @module The retry loop of record writes that plan against what they read: re-read and re-plan
 * when another writer committed first, and answer the conflicts that retrying cannot resolve.
 */
import { ApiError, Codes } from '../http/api-error.ts'
import { CommitConflict } from './zone-change.ts'

export interface ConflictRetry {
  /** Attempts before a zone that keeps changing answers 409. */
  maxAttempts: number
  /** What is being applied, as the 409 message names it ("batch", "import"). */
  what: string
  /** Wait before attempt `attempt + 1`; no wait when absent. */
  backoffMs?: (attempt: number) => number
}

/**
 * Runs `attempt` (load, plan, commit) until it returns. Its `CommitConflict`s become: another try
 * when the zone changed (409 `conflictRetry` after `maxAttempts`), 400 `identicalRecord`, 404
 * `zoneNotFound`. Any other error passes through.
 */
export async function retryOnConflict<T>(
  policy: ConflictRetry,
  attempt: (attempt: number) => Promise<T>
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n)
    } catch (e) {
      if (!(e instanceof CommitConflict)) throw e
      if (e.reason === 'zone-changed') {
        if (n >= policy.maxAttempts) {
          throw new ApiError(
            409,
            Codes.conflictRetry,
            `The zone changed ${policy.maxAttempts} times while this ${policy.what} was being applied; nothing was changed. Retry the request.`
          )
        }
        if (policy.backoffMs) await sleep(policy.backoffMs(n))
        continue
      }
      if (e.reason === 'identical-record')
        throw ApiError.badRequest(Codes.identicalRecord, 'An identical record already exists.')
      if (e.reason === 'zone-missing') throw new ApiError(404, Codes.zoneNotFound, 'Zone not found')
      throw e
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}
