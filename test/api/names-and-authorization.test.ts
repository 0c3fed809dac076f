/**
 * Names and authorization at the API: UTS 46 validity for every field holding a name, strict UTF-8
 * request bodies (JSON and the import form), account lookups limited to the token's accounts, and
 * errors that never name another account's zone.
 */
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, createZone, DEFAULT_ACCOUNT, DEV_TOKEN, expectError } from './helpers.ts'

async function token(policies: unknown[]): Promise<string> {
  const res = await api('POST', '/user/tokens', { name: 'names-authz', policies })
  if (res.status !== 200) throw new Error(`token create failed: ${JSON.stringify(res.body)}`)
  return res.body.result.value
}

const dnsWriteOn = (zoneId: string) => [
  {
    permission_groups: [{ name: 'DNS Write' }],
    resources: { [`com.cloudflare.api.account.zone.${zoneId}`]: '*' },
  },
]

async function otherAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `other-${Date.now()}-${Math.random()}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

/** A request with a body as given; without `contentType`, the body sets its own (multipart boundary). */
function rawRequest(
  method: string,
  path: string,
  body: BodyInit,
  contentType?: string
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${DEV_TOKEN}` }
  if (contentType !== undefined) headers['content-type'] = contentType
  return (exports as any).default.fetch(`http://localhost/client/v4${path}`, {
    method,
    headers,
    body,
  })
}

describe('names: UTS 46 / IDNA2008 validity', () => {
  const bad = ['a\u0085b', 'a\u200bb', 'a\u202eb', 'a\ufffdb', 'a\ufdd0b', 'a\ud800b']

  it.each(bad)('refuses the owner name %j instead of storing its Punycode', async (label) => {
    const z = await createZone('idn')
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: label,
      content: '192.0.2.1',
    })
    expectError(res, 400, 9000)
    expect(res.body.errors[0]!.message).toMatch(/DNS name is invalid/)
    expect((await api('GET', `/zones/${z.id}/dns_records`)).body.result).toEqual([])
  })

  it.each(bad)('refuses the zone name %j', async (label) => {
    expectError(
      await api('POST', '/zones', { name: `${label}.example`, account: { id: DEFAULT_ACCOUNT } }),
      400,
      1099
    )
  })

  it.each(bad)('refuses the hostname target %j (CNAME, MX, SRV, SVCB, NAPTR)', async (label) => {
    const z = await createZone('idn-target')
    const target = `${label}.example.net`
    const bodies = [
      { type: 'CNAME', name: 'c', content: target },
      { type: 'MX', name: 'm', content: target, priority: 10 },
      { type: 'SRV', name: '_s._tcp', data: { priority: 1, weight: 1, port: 1, target } },
      { type: 'HTTPS', name: 'h', data: { priority: 1, target, value: '' } },
      {
        type: 'NAPTR',
        name: 'n',
        data: {
          order: 1,
          preference: 1,
          flags: 'S',
          service: 'SIP+D2U',
          regex: '',
          replacement: target,
        },
      },
    ]
    for (const body of bodies) {
      const res = await api('POST', `/zones/${z.id}/dns_records`, body)
      expect(res.status, `${body.type}: ${JSON.stringify(res.body)}`).toBe(400)
      expect(res.body.errors[0]!.message).toMatch(/U\+|not a valid internationalised/)
    }
  })

  it('maps names as UTS 46 does (width, case, IDN full stop)', async () => {
    const z = await createZone('idn-map')
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'CNAME',
      name: 'ＷＷＷ\u3002Bücher',
      content: 'Straße.example',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.result).toMatchObject({
      name: `www.xn--bcher-kva.${z.name}`,
      content: 'xn--strae-oqa.example',
    })
  })
})

describe('request bodies are decoded strictly as UTF-8', () => {
  it('answers 400 to a JSON body with invalid UTF-8 instead of storing replacement characters', async () => {
    const z = await createZone('utf8')
    const head = new TextEncoder().encode('{"type":"TXT","name":"t","content":"a')
    const tail = new TextEncoder().encode('b"}')
    const body = new Uint8Array([...head, 0xff, 0xfe, ...tail])
    const res = await rawRequest('POST', `/zones/${z.id}/dns_records`, body, 'application/json')
    expect(res.status).toBe(400)
    const json = await res.json<any>()
    expect(json.errors[0]).toMatchObject({ code: 9208, message: 'Request body is not valid UTF-8' })
    expect((await api('GET', `/zones/${z.id}/dns_records`)).body.result).toEqual([])
  })

  it('answers 400 to an import form with invalid UTF-8 in the zone file', async () => {
    const z = await createZone('utf8-import')
    const form = new FormData()
    form.append(
      'file',
      new Blob([
        new TextEncoder().encode('bad 300 IN TXT "a'),
        new Uint8Array([0xc3, 0x28]),
        new TextEncoder().encode('"\n'),
      ]),
      'zone.txt'
    )
    const res = await rawRequest('POST', `/zones/${z.id}/dns_records/import`, form)
    expect(res.status).toBe(400)
    expect((await res.json<any>()).errors[0]).toMatchObject({
      code: 9208,
      message: expect.stringMatching(
        /^line 1: the zone file is not valid UTF-8 \(byte 0xC3 at column 18\); zone files are read as UTF-8/
      ),
    })
  })

  it('still accepts valid multi-byte UTF-8', async () => {
    const z = await createZone('utf8-ok')
    const res = await rawRequest(
      'POST',
      `/zones/${z.id}/dns_records`,
      new TextEncoder().encode('{"type":"TXT","name":"t","content":"héllo 😀"}'),
      'application/json'
    )
    expect(res.status).toBe(200)
  })
})

describe("authorization: accounts and other accounts' zones", () => {
  it('answers GET /accounts/{id} only for an account the token reaches', async () => {
    const z = await createZone('acct')
    const t = await token(dnsWriteOn(z.id))
    const b = await otherAccount()
    expect((await api('GET', `/accounts/${DEFAULT_ACCOUNT}`, undefined, t)).status).toBe(200)
    expectError(await api('GET', `/accounts/${b}`, undefined, t), 404, 1003)
    expect((await api('GET', '/accounts', undefined, t)).body.result.map((a: any) => a.id)).toEqual(
      [DEFAULT_ACCOUNT]
    )
  })

  it('does not name the zone in a 403 for a zone the token cannot reach', async () => {
    const b = await otherAccount()
    const secret = `secret-${Date.now()}.example`
    const victim = (await api('POST', '/zones', { name: secret, account: { id: b } })).body.result
    const own = await createZone('own')
    const t = await token(dnsWriteOn(own.id))
    for (const [method, path] of [
      ['GET', `/zones/${victim.id}/dns_records`],
      ['POST', `/zones/${victim.id}/dns_records`],
      ['GET', `/zones/${victim.id}/dns_settings`],
    ] as const) {
      const res = await api(
        method,
        path,
        method === 'POST' ? { type: 'A', name: 'x', content: '192.0.2.1' } : undefined,
        t
      )
      expect(res.status).toBe(403)
      expect(JSON.stringify(res.body)).not.toContain(secret)
      expect(JSON.stringify(res.body)).not.toContain(b)
    }
  })

  it("does not reveal another account's zone name or id when a new zone overlaps it", async () => {
    const b = await otherAccount()
    const parent = `hidden-${Date.now()}.example`
    const held = (await api('POST', '/zones', { name: `deep.${parent}`, account: { id: b } })).body
      .result
    const res = await api('POST', '/zones', { name: parent, account: { id: DEFAULT_ACCOUNT } })
    expectError(res, 400, 1097)
    const text = JSON.stringify(res.body)
    expect(text).not.toContain(`deep.${parent}`)
    expect(text).not.toContain(held.id)
    const dup = await api('POST', '/zones', {
      name: `deep.${parent}`,
      account: { id: DEFAULT_ACCOUNT },
    })
    expectError(dup, 400, 1061)
    expect(JSON.stringify(dup.body)).not.toContain(held.id)
  })
})
