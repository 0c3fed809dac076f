import { describe, expect, it } from 'vitest'
import { api, createZone, expectError } from './helpers.ts'

describe('records: create, get, overwrite, edit, delete', () => {
  it('creates a record with a relative name and returns the Cloudflare record object', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'WWW',
      content: '192.0.2.1',
      ttl: 300,
      comment: 'web',
      tags: ['Env:prod'],
    })
    expect(res.status).toBe(200)
    const r = res.body.result
    expect(r).toMatchObject({
      name: `www.${z.name}`,
      type: 'A',
      content: '192.0.2.1',
      ttl: 300,
      proxied: false,
      proxiable: true,
      comment: 'web',
      tags: ['env:prod'],
      meta: {},
      settings: {},
    })
    expect(r.id).toMatch(/^[0-9a-f]{32}$/)
    expect(r.created_on).toBe(r.modified_on)
    expect(res.headers.get('x-edgedns-change-seq')).toBe('2')
    const got = await api('GET', `/zones/${z.id}/dns_records/${r.id}`)
    expect(got.body.result).toEqual(r)
  })

  it('expands @ to the apex and takes an out-of-zone name as relative', async () => {
    const z = await createZone()
    const apex = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name: '@',
      content: 'hello',
    })
    expect(apex.body.result.name).toBe(z.name)
    expect(apex.body.result.content).toBe('hello')
    const rel = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'other.com',
      content: '192.0.2.2',
    })
    expect(rel.body.result.name).toBe(`other.com.${z.name}`)
  })

  it('PUT overwrites every field and resets the unspecified ones to defaults', async () => {
    const z = await createZone()
    const a = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'a',
        content: '192.0.2.1',
        proxied: true,
        comment: 'x',
        tags: ['t'],
      })
    ).body.result
    const put = await api('PUT', `/zones/${z.id}/dns_records/${a.id}`, {
      type: 'A',
      name: 'a',
      content: '192.0.2.9',
    })
    expect(put.status).toBe(200)
    expect(put.body.result).toMatchObject({
      id: a.id,
      content: '192.0.2.9',
      proxied: false,
      comment: null,
      tags: [],
      ttl: 1,
      created_on: a.created_on,
    })
  })

  it('PATCH changes only the given fields', async () => {
    const z = await createZone()
    const a = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'MX',
        name: '@',
        content: 'mx.example.net',
        priority: 10,
        comment: 'mail',
      })
    ).body.result
    const p = await api('PATCH', `/zones/${z.id}/dns_records/${a.id}`, { ttl: 3600 })
    expect(p.body.result).toMatchObject({
      content: 'mx.example.net',
      priority: 10,
      ttl: 3600,
      comment: 'mail',
    })
    const q = await api('PATCH', `/zones/${z.id}/dns_records/${a.id}`, { priority: 20 })
    expect(q.body.result.priority).toBe(20)
  })

  it('DELETE returns the id and a later GET answers 404 with 81044', async () => {
    const z = await createZone()
    const a = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'gone',
        content: '192.0.2.1',
      })
    ).body.result
    const d = await api('DELETE', `/zones/${z.id}/dns_records/${a.id}`)
    expect(d.body).toMatchObject({ success: true, result: { id: a.id } })
    expectError(await api('GET', `/zones/${z.id}/dns_records/${a.id}`), 404, 81044)
    expectError(await api('DELETE', `/zones/${z.id}/dns_records/${a.id}`), 404, 81044)
    expectError(await api('PATCH', `/zones/${z.id}/dns_records/${a.id}`, { ttl: 60 }), 404, 81044)
  })

  it('rejects a malformed record id with 1002', async () => {
    const z = await createZone()
    expectError(await api('GET', `/zones/${z.id}/dns_records/not-an-id`), 400, 1002)
  })

  it('keeps data-based types structured and formats content from data', async () => {
    const z = await createZone()
    const srv = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'SRV',
      name: '_sip._tcp',
      data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.net' },
    })
    expect(srv.status).toBe(200)
    expect(srv.body.result).toMatchObject({
      content: '5 5060 sip.example.net',
      priority: 10,
      data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.net' },
    })
    const caa = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'CAA',
      name: '@',
      data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
    })
    expect(caa.body.result.content).toBe('0 issue "letsencrypt.org"')
  })

  it("takes an SRV record's top-level priority into its data, on create and on PATCH", async () => {
    const z = await createZone()
    const made = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'SRV',
      name: '_xmpp._tcp',
      priority: 10,
      data: { weight: 5, port: 5222, target: 'xmpp.example.net' },
    })
    expect(made.status).toBe(200)
    expect(made.body.result).toMatchObject({ priority: 10, data: { priority: 10 } })
    const patched = await api('PATCH', `/zones/${z.id}/dns_records/${made.body.result.id}`, {
      priority: 99,
    })
    expect(patched.status).toBe(200)
    expect(patched.body.result).toMatchObject({
      priority: 99,
      content: '5 5222 xmpp.example.net',
      data: { priority: 99, weight: 5, port: 5222, target: 'xmpp.example.net' },
    })
  })

  it('accepts private_routing off and refuses it on, never dropping it silently', async () => {
    const z = await createZone()
    const off = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'pr-off',
      content: '192.0.2.1',
      private_routing: false,
    })
    expect(off.status).toBe(200)
    const on = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'pr-on',
      content: '192.0.2.1',
      private_routing: true,
    })
    expect(on.status).toBe(400)
    expect(JSON.stringify(on.body.errors)).toContain('private_routing cannot be turned on here')
  })

  it('stores AAAA in RFC 5952 form', async () => {
    const z = await createZone()
    const r = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'AAAA',
      name: 'v6',
      content: '2001:DB8:0:0:0:0:0:1',
    })
    expect(r.body.result.content).toBe('2001:db8::1')
  })
})

describe('records: validation errors', () => {
  const cases: [string, Record<string, unknown>, number][] = [
    ['invalid IPv4', { type: 'A', name: 'x', content: '999.1.1.1' }, 9005],
    ['short IPv4 form', { type: 'A', name: 'x', content: '1.1' }, 9005],
    ['invalid CNAME target', { type: 'CNAME', name: 'x', content: 'bad target!' }, 9007],
    ['TTL too low', { type: 'A', name: 'x', content: '192.0.2.1', ttl: 59 }, 9021],
    ['TTL too high', { type: 'A', name: 'x', content: '192.0.2.1', ttl: 86401 }, 9021],
    ['proxied TXT', { type: 'TXT', name: 'x', content: 'v', proxied: true }, 9041],
    ['64-octet label', { type: 'A', name: `${'a'.repeat(64)}`, content: '192.0.2.1' }, 9000],
    ['wildcard not leftmost', { type: 'A', name: 'a.*.b', content: '192.0.2.1' }, 9000],
    ['missing type', { name: 'x', content: '192.0.2.1' }, 9000],
    ['unknown type', { type: 'SPF', name: 'x', content: 'v=spf1' }, 9020],
    ['missing name', { type: 'A', content: '192.0.2.1' }, 9000],
    ['MX without priority', { type: 'MX', name: 'x', content: 'mx.example.net' }, 9100],
  ]
  for (const [what, body, code] of cases) {
    it(`rejects ${what} with HTTP 400 and code ${code}`, async () => {
      const z = await createZone()
      const res = await api('POST', `/zones/${z.id}/dns_records`, body)
      expect(res.status).toBe(400)
      expect(res.body.success).toBe(false)
      expect(res.body.result).toBeNull()
      expect(res.body.errors[0]!.code).toBe(code)
      expect(res.body.errors[0]!.message.length).toBeGreaterThan(5)
    })
  }

  it('names the problem in malformed JSON', async () => {
    const z = await createZone()
    const res = await api(
      'POST',
      `/zones/${z.id}/dns_records`,
      undefined,
      'dev-token',
      '{"type": "A",'
    )
    expectError(res, 400, 9207)
    expect(res.body.errors[0]!.message).toMatch(/Malformed JSON/)
  })

  it('rejects a wrongly typed field naming it', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'x',
      content: '192.0.2.1',
      ttl: 'long',
    })
    expectError(res, 400, 9000)
    expect(res.body.errors[0]!.message).toMatch(/^ttl:/)
  })
})

describe('records: conflicts', () => {
  it('rejects an identical record with 81058', async () => {
    const z = await createZone()
    await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'dup',
      content: '192.0.2.1',
    })
    expectError(
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'DUP',
        content: '192.0.2.1',
        ttl: 60,
      }),
      400,
      81058
    )
  })

  it('rejects a CNAME where an A exists (81053) and an A where a CNAME exists (81054)', async () => {
    const z = await createZone()
    await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'host',
      content: '192.0.2.1',
    })
    expectError(
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'CNAME',
        name: 'host',
        content: 'x.example.net',
      }),
      400,
      81053
    )
    await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'CNAME',
      name: 'alias',
      content: 'x.example.net',
    })
    expectError(
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'AAAA',
        name: 'alias',
        content: '2001:db8::1',
      }),
      400,
      81054
    )
    expectError(
      await api('POST', `/zones/${z.id}/dns_records`, { type: 'TXT', name: 'alias', content: 'x' }),
      400,
      81054
    )
    expectError(
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'CNAME',
        name: 'alias',
        content: 'y.example.net',
      }),
      400,
      81053
    )
  })

  it('rejects a CNAME pointing at its own name', async () => {
    const z = await createZone()
    expectError(
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'CNAME',
        name: 'self',
        content: `self.${z.name}`,
      }),
      400,
      9007
    )
  })

  it('rejects a patch that would duplicate another record', async () => {
    const z = await createZone()
    await api('POST', `/zones/${z.id}/dns_records`, { type: 'A', name: 'p', content: '192.0.2.1' })
    const b = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'p',
        content: '192.0.2.2',
      })
    ).body.result
    expectError(
      await api('PATCH', `/zones/${z.id}/dns_records/${b.id}`, { content: '192.0.2.1' }),
      400,
      81058
    )
  })
})
