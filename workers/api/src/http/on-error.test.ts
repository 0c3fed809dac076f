import { describe, expect, it } from 'vitest'
import { toApiError } from './on-error.ts'

describe('toApiError', () => {
  it('turns a missing table (migrations never applied) into a 503 that says what to run, also when wrapped', () => {
    const d1 = new Error('D1_ERROR: no such table: zones: SQLITE_ERROR')
    const wrapped = new Error('Failed query: select ... from "zones"', { cause: d1 })
    for (const err of [d1, wrapped]) {
      const e = toApiError(err)
      expect(e.status).toBe(503)
      expect(e.message).toContain('d1 migrations apply edgedns --local')
    }
  })

  it('keeps anything else unexpected a 500', () => {
    expect(toApiError(new Error('no such table: mirror_nodes')).status).toBe(500)
    expect(toApiError(new TypeError('x is undefined')).status).toBe(500)
  })
})
