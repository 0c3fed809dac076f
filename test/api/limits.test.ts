import { describe, expect, it } from 'vitest'
import { exports } from 'cloudflare:workers'
import { DEFAULT_MAX_BODY_BYTES, maxBodyBytes } from '../../workers/api/src/http/body-limit.ts'
import { api, createZone, expectError } from './helpers.ts'
import { exportZone } from './import-export-helpers.ts'

describe('request limits', () => {
  it('answers 413 in the envelope for a body over the limit, and changes nothing', async () => {
    const z = await createZone()
    const big = JSON.stringify({
      posts: [{ type: 'TXT', name: 'big', content: 'x'.repeat(21 * 1024 * 1024) }],
    })
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, undefined, 'dev-token', big)
    expectError(res, 413, 10413)
    const list = await api('GET', `/zones/${z.id}/dns_records`)
    expect(list.body.result).toEqual([])
  })

  it('answers 413 for a streamed body without content-length once it passes the limit', async () => {
    const z = await createZone()
    const chunk = new TextEncoder().encode(' '.repeat(1024 * 1024))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 21) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const res = await (exports as any).default.fetch(
      `http://localhost/client/v4/zones/${z.id}/dns_records/batch`,
      {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body,
        duplex: 'half',
      }
    )
    expect(res.status).toBe(413)
    expect((await res.json()).errors[0].code).toBe(10413)
  })

  it('caps bodies at 32 MiB unless MAX_BODY_BYTES says otherwise', () => {
    expect(maxBodyBytes({})).toBe(DEFAULT_MAX_BODY_BYTES)
    expect(DEFAULT_MAX_BODY_BYTES).toBe(32 * 1024 * 1024)
    expect(maxBodyBytes({ MAX_BODY_BYTES: '1000' })).toBe(1000)
    expect(maxBodyBytes({ MAX_BODY_BYTES: 'lots' })).toBe(DEFAULT_MAX_BODY_BYTES)
  })

  it('rejects a TXT record whose wire form would exceed 4096 octets', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name: 't',
      content: 'y'.repeat(5000),
    })
    expect(res.status).toBe(400)
    expect(res.body.errors[0]!.code).toBe(9135)
  })

  it('keeps a long TXT value as sent and splits it into 255-octet strings in the zone file', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name: 't',
      content: 'z'.repeat(600),
    })
    expect(res.status).toBe(200)
    expect(res.body.result.content).toBe('z'.repeat(600))
    expect((await exportZone(z.id)).text).toContain(
      `\tTXT\t"${'z'.repeat(255)}" "${'z'.repeat(255)}" "${'z'.repeat(90)}"\n`
    )
  })
})

describe('accounts', () => {
  it('lets an admin raise an account batch limit and rejects values above the ceiling', async () => {
    const acct = (await api('POST', '/accounts', { name: 'limits' })).body.result
    expect(
      (await api('PUT', `/accounts/${acct.id}`, { settings: { max_dns_batch_changes: 5000 } })).body
        .result.settings.max_dns_batch_changes
    ).toBe(5000)
    expectError(
      await api('PUT', `/accounts/${acct.id}`, { settings: { max_dns_batch_changes: 50_001 } }),
      400,
      9000
    )
    expectError(await api('GET', '/accounts/ffffffffffffffffffffffffffffffff'), 404, 1003)
  })
})
