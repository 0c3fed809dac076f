import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { ApiError, Codes } from './api-error.ts'
import { onError, toApiError } from './on-error.ts'

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

describe('onError logging', () => {
  const answer = async (err: unknown) => {
    const app = new Hono()
    app.get('/', () => {
      throw err
    })
    app.onError(onError)
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const res = await app.request('/')
    const logged = {
      status: res.status,
      error: error.mock.calls.length,
      warn: warn.mock.calls.length,
    }
    error.mockRestore()
    warn.mockRestore()
    return logged
  }

  it('logs a fault with its stack, and a 502 the API answers on purpose in one warning line', async () => {
    expect(await answer(new TypeError('x is undefined'))).toEqual({
      status: 500,
      error: 1,
      warn: 0,
    })
    const upstream = new ApiError(502, Codes.internal, 'AXFR failed: the primary did not answer')
    expect(await answer(upstream)).toEqual({ status: 502, error: 0, warn: 1 })
    expect(await answer(ApiError.badRequest(Codes.invalidRequest, 'no'))).toEqual({
      status: 400,
      error: 0,
      warn: 0,
    })
  })
})
