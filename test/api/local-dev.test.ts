/**
 * GET /client/v4/local_dev offers the dev token to the dashboard only when DEV_API_TOKEN is set, and
 * local development (DEV_API_TOKEN set) answers only requests addressed to a loopback host: a page
 * that rebinds its own name to 127.0.0.1 gets neither the dev token nor any answer.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../workers/api/src/app.ts'
import worker from '../../workers/api/src/index.ts'
import { DEV_TOKEN } from './helpers.ts'

const get = (bindings: Record<string, unknown>, origin = 'http://localhost') =>
  createApp().request(`${origin}/client/v4/local_dev`, {}, bindings as any) as Promise<Response>

/** The whole worker (API and /dns-query) as `pnpm dev` runs it, asked at `url`. */
async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request(url, init) as Request<unknown, IncomingRequestCfProperties>,
    env as Env,
    ctx
  )
  await waitOnExecutionContext(ctx)
  return res
}

const LOOPBACK = [
  'localhost',
  'LOCALHOST:8787',
  '127.0.0.1',
  '127.0.0.1:8787',
  '127.3.2.1:1',
  '[::1]:8787',
]
const ELSEWHERE = [
  'rebind.example',
  'rebind.example:8787',
  '127.0.0.1.nip.io',
  '128.0.0.1',
  '[::2]',
]

/** Each response is a 403 in the envelope (code 10010) whose message holds `message`, never the dev token. */
async function expectHostRefused(responses: Response[], message: string): Promise<void> {
  for (const res of responses) {
    expect(res.status).toBe(403)
    const text = await res.text()
    expect(text).not.toContain(DEV_TOKEN)
    expect(JSON.parse(text).errors[0]).toMatchObject({
      code: 10010,
      message: expect.stringContaining(message),
    })
  }
}

describe('local_dev', () => {
  it('answers the dev token without authentication when DEV_API_TOKEN is set', async () => {
    const res = await get({ ...env, DEV_API_TOKEN: 'some-dev-token' })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(((await res.json()) as any).result).toEqual({ dev_token: 'some-dev-token' })
  })

  it('is an unknown route when DEV_API_TOKEN is not set (deployed workers)', async () => {
    const res = await get({ ...env, DEV_API_TOKEN: undefined }, 'http://api.example')
    expect(res.status).toBe(400)
    const body = (await res.json()) as any
    expect(body.success).toBe(false)
    expect(body.errors[0].code).toBe(7000)
    expect(JSON.stringify(body)).not.toContain('dev-token')
  })

  it.each(LOOPBACK)('answers on the loopback host %s', async (host) => {
    const res = await call(`http://${host}/client/v4/local_dev`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as any).result).toEqual({ dev_token: DEV_TOKEN })
  })

  it.each(ELSEWHERE)(
    'refuses everything addressed to %s: local_dev, the dev token, /dns-query',
    async (host) => {
      const local = await call(`http://${host}/client/v4/local_dev`)
      const zones = await call(`http://${host}/client/v4/zones`, {
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
      })
      const doh = await call(`http://${host}/dns-query?name=example.com&type=A`, {
        headers: { accept: 'application/dns-json' },
      })
      await expectHostRefused([local, zones, doh], 'addressed to this machine')
    }
  )

  it.each(['localhost:', 'localhost:99999', 'localhost:65536', '[::1]:99999', 'localhost:abc'])(
    'refuses a Host header %j as the fronts do (403 in the envelope), whatever the URL says',
    async (host) => {
      const init = { headers: { host, authorization: `Bearer ${DEV_TOKEN}` } }
      const local = await call('http://localhost/client/v4/local_dev', init)
      const zones = await call('http://localhost/client/v4/zones', init)
      const doh = await call('http://localhost/dns-query?name=example.com&type=A', {
        headers: { host, accept: 'application/dns-json' },
      })
      await expectHostRefused([local, zones, doh], `addressed to ${JSON.stringify(host)}`)
    }
  )

  it('serves a loopback Host header with any port a URL holds', async () => {
    const res = await call('http://localhost/client/v4/local_dev', {
      headers: { host: 'localhost:65535' },
    })
    expect(res.status).toBe(200)
  })

  it('refuses nothing for its host once deployed (no DEV_API_TOKEN)', async () => {
    const res = await createApp().request(
      'https://dns.example.net/client/v4/zones',
      { headers: { authorization: `Bearer ${DEV_TOKEN}` } },
      { ...env, DEV_API_TOKEN: undefined } as any
    )
    // The dev token does not exist there: an invalid token, not a refused host.
    expect(res.status).toBe(403)
    expect(((await res.json()) as any).errors[0].code).toBe(9109)
  })
})
