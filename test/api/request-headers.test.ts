/**
 * Request headers the API reads before any route: the `Authorization` scheme (case-insensitive,
 * RFC 9110 §11.1) and the body's `Content-Encoding` (only identity; 415 otherwise, RFC 9110 §15.5.16).
 */
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { DEV_TOKEN, createZone, expectError, request } from './helpers.ts'

describe('Authorization scheme', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('takes %s <token>', async (scheme) => {
    const res = await request('GET', '/zones', undefined, {
      authorization: `${scheme} ${DEV_TOKEN}`,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it('takes several spaces between scheme and token (1*SP)', async () => {
    const res = await request('GET', '/zones', undefined, { authorization: `Bearer  ${DEV_TOKEN}` })
    expect(res.status).toBe(200)
  })

  it.each(['Basic dev-token', 'Bearerdev-token', `Bearer`, 'Token dev-token'])(
    'still refuses %j with 6003',
    async (value) => {
      expectError(await request('GET', '/zones', undefined, { authorization: value }), 400, 6003)
    }
  )
})

describe('Content-Encoding of a request body', () => {
  const record = JSON.stringify({ type: 'A', name: 'gz', content: '192.0.2.1' })

  it.each(['gzip', 'GZIP', 'br', 'deflate', 'identity, gzip'])(
    'refuses a body coded %j with 415, naming it',
    async (coding) => {
      const z = await createZone('coding')
      const res = await request('POST', `/zones/${z.id}/dns_records`, gzipSync(record), {
        authorization: `Bearer ${DEV_TOKEN}`,
        'content-type': 'application/json',
        'content-encoding': coding,
      })
      expectError(res, 415, 10415)
      expect(res.body.errors[0]!.message).toBe(
        `Content-Encoding ${JSON.stringify(coding)} is not supported: send the request body uncompressed (identity)`
      )
      expect(res.headers.get('accept-encoding')).toBe('identity')
      expect(
        (
          await request('GET', `/zones/${z.id}/dns_records`, undefined, {
            authorization: `Bearer ${DEV_TOKEN}`,
          })
        ).body.result
      ).toEqual([])
    }
  )

  it('takes a body coded identity, and ignores the header on a request without a body', async () => {
    const z = await createZone('coding-identity')
    const res = await request('POST', `/zones/${z.id}/dns_records`, record, {
      authorization: `Bearer ${DEV_TOKEN}`,
      'content-type': 'application/json',
      'content-encoding': 'identity',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const list = await request('GET', `/zones/${z.id}/dns_records`, undefined, {
      authorization: `Bearer ${DEV_TOKEN}`,
      'content-encoding': 'gzip',
    })
    expect(list.status).toBe(200)
  })
})
