import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { api, createZone, DEFAULT_ACCOUNT } from '../../../../test/api/helpers.ts'
import * as r from './responses.ts'

/** The answer's result satisfies the schema, and has no field the schema does not describe. */
function expectDescribed(schema: z.ZodObject, result: Record<string, unknown>): void {
  expect(() => schema.parse(result)).not.toThrow()
  expect(Object.keys(result).filter((k) => !(k in schema.shape))).toEqual([])
}

// The response schemas feed the OpenAPI document and, through it, the SDK's types: here they
// are held to what the routes really answer.
describe('the documented response shapes', () => {
  it('describe the answers of the zone, record, batch, settings and propagation endpoints', async () => {
    const z = await createZone('shapes')
    expectDescribed(r.zoneResponse, (await api('GET', `/zones/${z.id}`)).body.result)
    const mx = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'MX',
      name: 'mx',
      content: 'mail.example.net',
      priority: 10,
      comment: 'c',
      tags: ['a:b'],
    })
    expectDescribed(r.recordResponse, mx.body.result)
    const srv = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'SRV',
      name: '_sip._tcp',
      data: { priority: 1, weight: 2, port: 5060, target: 'sip.example.net' },
    })
    expectDescribed(r.recordResponse, srv.body.result)
    const batch = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      deletes: [{ id: mx.body.result.id }],
      posts: [{ type: 'A', name: 'www', content: '192.0.2.1' }],
    })
    expectDescribed(r.batchResponse, batch.body.result)
    expectDescribed(
      r.dnsSettingsResponse,
      (await api('GET', `/zones/${z.id}/dns_settings`)).body.result
    )
    expectDescribed(
      r.propagationResponse,
      (await api('GET', `/zones/${z.id}/propagation`)).body.result
    )
  })

  it('describe the answers of the token and account endpoints', async () => {
    const created = await api('POST', '/user/tokens', {
      name: 'shapes',
      policies: [
        {
          permission_groups: [{ name: 'DNS Read' }],
          resources: { [`com.cloudflare.api.account.${DEFAULT_ACCOUNT}`]: '*' },
        },
      ],
    })
    expect(created.status).toBe(200)
    expectDescribed(r.tokenResponse, created.body.result)
    expectDescribed(
      r.tokenResponse,
      (await api('GET', `/user/tokens/${created.body.result.id}`)).body.result
    )
    expectDescribed(
      r.accountResponse,
      (await api('GET', `/accounts/${DEFAULT_ACCOUNT}`)).body.result
    )
  })
})
