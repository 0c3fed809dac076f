import { describe, expect, it } from 'vitest'
import { resumedPhase, resumedPhaseTimes } from './phase-times.ts'

describe('a resumed full build’s phase times', () => {
  it('start every phase at 0 when nothing was stored', () => {
    expect(resumedPhaseTimes(undefined)).toEqual({ write: 0, buckets: 0, prune: 0 })
  })

  it('give a phase the stored times lack 0, not undefined', () => {
    expect(resumedPhaseTimes({ write: 5, buckets: 7 })).toEqual({ write: 5, buckets: 7, prune: 0 })
  })

  it('charge time stored under the former name of the last phase to prune', () => {
    expect(resumedPhaseTimes({ write: 5, buckets: 7, sweep: 3 })).toEqual({
      write: 5,
      buckets: 7,
      prune: 3,
    })
  })

  it('drop values that are not finite numbers', () => {
    expect(resumedPhaseTimes({ write: Number.NaN, buckets: '7', prune: 2, other: 9 })).toEqual({
      write: 0,
      buckets: 0,
      prune: 2,
    })
  })

  it('resume a build stored in a phase under its former name in that phase', () => {
    expect(resumedPhase('sweep')).toBe('prune')
    expect(resumedPhase('buckets')).toBe('buckets')
    expect(resumedPhase('write')).toBe('write')
  })
})
