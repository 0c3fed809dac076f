import { describe, expect, it } from 'vitest'
import { ApiError, Codes } from '../http/api-error.ts'
import { retryOnConflict } from './conflict-retry.ts'
import { CommitConflict, type ConflictReason } from './zone-change.ts'

const conflict = (reason: ConflictReason) => new CommitConflict(reason, { cause: null })

async function apiErrorOf(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err
  )
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`)
  return e
}

describe('retryOnConflict', () => {
  it('tries again while the zone changed, waiting the backoff between attempts', async () => {
    const waits: number[] = []
    const result = await retryOnConflict(
      { maxAttempts: 4, what: 'batch', backoffMs: (n) => (waits.push(n), 0) },
      async (n) => {
        if (n < 3) throw conflict('zone-changed')
        return n
      }
    )
    expect(result).toBe(3)
    expect(waits).toEqual([1, 2])
  })

  it('answers 409 naming the attempts and the operation once the zone kept changing', async () => {
    let calls = 0
    const e = await apiErrorOf(
      retryOnConflict({ maxAttempts: 4, what: 'import' }, async () => {
        calls++
        throw conflict('zone-changed')
      })
    )
    expect(calls).toBe(4)
    expect([e.status, e.code]).toEqual([409, Codes.conflictRetry])
    expect(e.message).toContain('changed 4 times while this import was being applied')
  })

  it('answers an identical record with 400 and a vanished zone with 404, without retrying', async () => {
    for (const [reason, status, code] of [
      ['identical-record', 400, Codes.identicalRecord],
      ['zone-missing', 404, Codes.zoneNotFound],
    ] as const) {
      let calls = 0
      const e = await apiErrorOf(
        retryOnConflict({ maxAttempts: 4, what: 'batch' }, async () => {
          calls++
          throw conflict(reason)
        })
      )
      expect([calls, e.status, e.code]).toEqual([1, status, code])
    }
  })

  it('passes other conflicts and other errors through unchanged', async () => {
    const fenced = conflict('account-fenced')
    const fault = new TypeError('boom')
    for (const err of [fenced, fault])
      await expect(
        retryOnConflict({ maxAttempts: 4, what: 'batch' }, async () => {
          throw err
        })
      ).rejects.toBe(err)
  })
})
