/**
 * GET /client/v4/local_dev offers the dev token to the dashboard only when DEV_API_TOKEN is set.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../workers/api/src/app.ts'

const get = (bindings: Record<string, unknown>) =>
  createApp().request(
    'http://api.test/client/v4/local_dev',
    {},
    bindings as any
  ) as Promise<Response>

describe('local_dev', () => {
  it('answers the dev token without authentication when DEV_API_TOKEN is set', async () => {
    const res = await get({ ...env, DEV_API_TOKEN: 'some-dev-token' })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(((await res.json()) as any).result).toEqual({ dev_token: 'some-dev-token' })
  })

  it('is an unknown route when DEV_API_TOKEN is not set (deployed workers)', async () => {
    const res = await get({ ...env, DEV_API_TOKEN: undefined })
    expect(res.status).toBe(400)
    const body = (await res.json()) as any
    expect(body.success).toBe(false)
    expect(body.errors[0].code).toBe(7000)
    expect(JSON.stringify(body)).not.toContain('dev-token')
  })
})
