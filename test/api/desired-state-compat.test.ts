/**
 * What tools that diff desired state against the API (octoDNS, Terraform) rely on: fully qualified
 * SVCB/HTTPS targets and NAPTR replacements, the read-only page-rules listing, the DNS settings the
 * official SDK models, and 405 with Allow for methods a path is not served with.
 */
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, createZone, DEV_TOKEN, expectError } from './helpers.ts'

describe('fully qualified SVCB/HTTPS targets and NAPTR replacements', () => {
  it('answers the trailing dot it was given, in content and data, and an identical re-post conflicts', async () => {
    const z = await createZone('fqdn')
    const svcb = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'SVCB',
      name: 's',
      data: { priority: 1, target: 'svc.example.net.', value: 'alpn="h2"' },
    })
    expect(svcb.status, JSON.stringify(svcb.body)).toBe(200)
    expect(svcb.body.result).toMatchObject({
      content: '1 svc.example.net. alpn="h2"',
      data: { target: 'svc.example.net.' },
    })
    const https = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'HTTPS',
      name: 'h',
      data: { priority: 0, target: 'pool.example.net.' },
    })
    expect(https.body.result).toMatchObject({
      content: '0 pool.example.net.',
      data: { target: 'pool.example.net.' },
    })
    const naptr = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'NAPTR',
      name: 'n',
      data: {
        order: 10,
        preference: 20,
        flags: 'S',
        service: 'SIP+D2U',
        regex: '',
        replacement: '_sip._udp.example.net.',
      },
    })
    expect(naptr.body.result).toMatchObject({
      content: '10 20 "S" "SIP+D2U" "" _sip._udp.example.net.',
      data: { replacement: '_sip._udp.example.net.' },
    })
    // Written without the dot it is the same record.
    expectError(
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'SVCB',
        name: 's',
        data: { priority: 1, target: 'svc.example.net', value: 'alpn=h2' },
      }),
      400,
      81058
    )
    const cname = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'CNAME',
      name: 'c',
      content: 'target.example.net.',
    })
    expect(cname.body.result.content).toBe('target.example.net')
  })

  it('upgrades rows stored without the dot (migration 0007) and exports them unchanged', async () => {
    const z = await createZone('fqdn-migrate')
    const made = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        {
          type: 'HTTPS',
          name: 'h',
          data: { priority: 1, target: 'svc.example.net', value: 'alpn="h2" port=8443' },
        },
        { type: 'SVCB', name: 'a', data: { priority: 0, target: 'alias.example.net' } },
        { type: 'HTTPS', name: 'r', data: { priority: 1, target: '.', value: 'alpn="h3"' } },
        {
          type: 'NAPTR',
          name: 'n',
          data: {
            order: 1,
            preference: 2,
            flags: 'U',
            service: 'E2U+sip',
            regex: '!^.*$!sip:x@example.net!',
            replacement: '.',
          },
        },
        {
          type: 'NAPTR',
          name: 'm',
          data: {
            order: 1,
            preference: 2,
            flags: 'S',
            service: 'SIP+D2U',
            regex: '',
            replacement: '_sip._udp.example.net',
          },
        },
      ],
    })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const exportBefore = await (await fetchRaw(`/zones/${z.id}/dns_records/export`)).text()
    const wanted = (await api('GET', `/zones/${z.id}/dns_records?per_page=100`)).body.result
      .map(pick)
      .sort(byName)
    // Rewind the rows to the form stored before: no trailing dot on names.
    await env.DB.prepare(
      `UPDATE dns_records SET content = replace(content, '.example.net.', '.example.net'),
         data = replace(replace(data, '.example.net."', '.example.net"'), '.example.net.","', '.example.net","')
       WHERE zone_id = ?1 AND type IN ('SVCB', 'HTTPS', 'NAPTR')`
    )
      .bind(z.id)
      .run()
    const old = (await api('GET', `/zones/${z.id}/dns_records?per_page=100`)).body.result.map(pick)
    expect(old.find((r: any) => r.name.startsWith('h.')).content).toBe(
      '1 svc.example.net alpn="h2" port=8443'
    )
    const migration = (env as any).TEST_MIGRATIONS.find((m: { name: string }) =>
      m.name.startsWith('0007_')
    )
    for (const q of migration.queries as string[]) await env.DB.prepare(q).run()
    expect(
      (await api('GET', `/zones/${z.id}/dns_records?per_page=100`)).body.result
        .map(pick)
        .sort(byName)
    ).toEqual(wanted)
    const body = (text: string) =>
      text
        .split('\n')
        .filter((l) => !l.startsWith(';'))
        .join('\n')
    expect(body(await (await fetchRaw(`/zones/${z.id}/dns_records/export`)).text())).toBe(
      body(exportBefore)
    )
  })
})

const pick = (r: any) => ({ name: r.name, type: r.type, content: r.content, data: r.data })
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)

function fetchRaw(path: string, init: RequestInit = {}): Promise<Response> {
  return (exports as any).default.fetch(`http://localhost/client/v4${path}`, {
    ...init,
    headers: { authorization: `Bearer ${DEV_TOKEN}`, ...(init.headers ?? {}) },
  })
}

describe('page rules, read-only', () => {
  it('lists an empty set of page rules, Cloudflare-style, and refuses to create one with 405', async () => {
    const z = await createZone('pagerules')
    const list = await api('GET', `/zones/${z.id}/pagerules?status=active`)
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ success: true, errors: [], result: [] })
    const post = await fetchRaw(`/zones/${z.id}/pagerules`, { method: 'POST', body: '{}' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    expectError(await api('GET', `/zones/${'0'.repeat(32)}/pagerules`), 404, 7003)
  })
})

describe('DNS settings', () => {
  it("carries the settings the official SDK models, at Cloudflare's defaults", async () => {
    const z = await createZone('settings')
    const res = await api('GET', `/zones/${z.id}/dns_settings`)
    expect(res.body.result).toMatchObject({
      flatten_all_cnames: false,
      foundation_dns: false,
      internal_dns: {},
      multi_provider: false,
      secondary_overrides: false,
      zone_mode: 'dns_only',
      nameservers: { type: 'custom.zone' },
    })
  })

  it('accepts those settings at their fixed values and refuses to turn them on', async () => {
    const z = await createZone('settings-edit')
    const same = await api('PATCH', `/zones/${z.id}/dns_settings`, {
      flatten_all_cnames: false,
      multi_provider: false,
      internal_dns: {},
    })
    expect(same.status, JSON.stringify(same.body)).toBe(200)
    const on = await api('PATCH', `/zones/${z.id}/dns_settings`, { flatten_all_cnames: true })
    expectError(on, 400, 9000)
    expect(on.body.errors[0]!.message).toMatch(/flatten_all_cnames cannot be turned on/)
  })
})

describe('methods a path is not served with', () => {
  it.each([
    ['PUT', '/zones', 'GET, HEAD, POST'],
    ['DELETE', '/zones/{zone}/dns_records', 'GET, HEAD, POST'],
    ['POST', '/zones/{zone}/dns_settings', 'GET, HEAD, PATCH'],
    ['GET', '/propagation/sweep', 'POST'],
    ['TRACE', '/zones/{zone}', 'GET, HEAD, PATCH, DELETE'],
    ['PROPFIND', '/accounts', 'GET, HEAD, POST'],
    ['POST', '/user/tokens/verify', 'GET, HEAD'],
    // Literal paths beside `…/dns_records/{record_id}`: never taken for a record id (400/1002).
    ['GET', '/zones/{zone}/dns_records/batch', 'POST'],
    ['PUT', '/zones/{zone}/dns_records/batch', 'POST'],
    ['DELETE', '/zones/{zone}/dns_records/batch', 'POST'],
    ['GET', '/zones/{zone}/dns_records/import', 'POST'],
    ['DELETE', '/zones/{zone}/dns_records/export', 'GET, HEAD'],
    ['PATCH', '/zones/{zone}/dns_records/export', 'GET, HEAD'],
    ['PUT', '/zones/{zone}/dns_records/audit', 'GET, HEAD'],
  ])('%s %s → 405 with Allow: %s', async (method, template, allow) => {
    const z = await createZone('methods')
    const res = await fetchRaw(template.replace('{zone}', z.id), { method })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe(allow)
    expect((await res.json<any>()).errors[0].code).toBe(10405)
  })

  it.each(['GET', 'POST', 'DELETE', 'PUT'])(
    '%s /zones/ (trailing slash) is no route, whatever the method',
    async (method) => {
      const res = await fetchRaw('/zones/', { method })
      expect(res.status).toBe(400)
      expect(res.headers.get('allow')).toBeNull()
      expect((await res.json<any>()).errors[0].code).toBe(7000)
    }
  )

  it('still answers 400/7000 for a path no route has', async () => {
    const res = await fetchRaw('/nothing/here', { method: 'GET' })
    expect(res.status).toBe(400)
    expect((await res.json<any>()).errors[0].code).toBe(7000)
  })
})
