/**
 * CORS: the JSON API (and the wire format) can be read by any origin; OPTIONS preflight.
 */
import { describe, expect, it } from 'vitest'
import { BASE, fetchDoh, getJson, postWire } from './helpers/doh.ts'
import { encodeQuery } from '../../packages/dns-wire/src/index.ts'

describe('CORS', () => {
  it('answers a preflight', async () => {
    const res = await fetchDoh(BASE, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toContain('GET')
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    expect(res.headers.get('access-control-allow-headers')).toContain('content-type')
    expect(res.headers.get('access-control-max-age')).toBe('86400')
  })

  it.each([
    [
      'JSON answer',
      () =>
        getJson('name=www.cors.invalid', {
          accept: 'application/dns-json',
          origin: 'https://app.example',
        }),
    ],
    ['JSON error', () => getJson('name=x.invalid&cd=9', { origin: 'https://app.example' })],
    [
      'wire answer',
      () => postWire(encodeQuery('www.cors.invalid', 'A'), { origin: 'https://app.example' }),
    ],
    ['HTTP error', () => fetchDoh(BASE, { method: 'PUT' })],
  ] as [string, () => Promise<Response>][])('%s allows any origin', async (_, request) => {
    const res = await request()
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    await res.arrayBuffer()
  })
})
