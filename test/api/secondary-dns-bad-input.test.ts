/**
 * Bad input to the zone-transfer (secondary DNS) API: malformed and wrongly shaped bodies, values
 * out of range, ids that are malformed or belong to another account, settings on the wrong kind
 * of zone, and truncated or garbage DNS messages to the DNS front's relay endpoints. Every answer
 * is a 4xx in the Cloudflare envelope with a specific code (never a 500), and a refused write
 * leaves what was stored as it was.
 */
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { decodeMessage, encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { parseTsigKey, signMessage } from '../../packages/zone-transfer/src/index.ts'
import { api, createZone, DEV_TOKEN, type ApiResponse } from './helpers.ts'
import {
  base,
  created,
  newPeer,
  newTsig,
  SECRET,
  unique,
  zoneOfType,
} from './secondary-dns-helpers.ts'

/** A refusal in the Cloudflare envelope: `status`, and `code` first among the errors. */
function refused(res: ApiResponse, status: number, code: number): void {
  const detail = `${res.status} ${JSON.stringify(res.body).slice(0, 400)}`
  expect(res.status, detail).toBe(status)
  expect(res.body, detail).toMatchObject({ success: false, messages: [], result: null })
  expect(res.body.errors.length, detail).toBeGreaterThan(0)
  expect(res.body.errors[0]!.code, detail).toBe(code)
  expect(res.body.errors[0]!.message, detail).toMatch(/\S/)
}

/** A raw request with a body as given (not JSON-encoded) and the content type given. */
async function raw(
  method: string,
  path: string,
  body: BodyInit | undefined,
  contentType = 'application/json',
  extra: Record<string, string> = {}
): Promise<ApiResponse> {
  const res: Response = await (exports as any).default.fetch(`http://localhost/client/v4${path}`, {
    method,
    headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': contentType, ...extra },
    body,
  })
  const text = await res.text()
  let parsed: any
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = text
  }
  return { status: res.status, body: parsed, headers: res.headers }
}

const BIG = 'a'.repeat(100_000)
const MISSING = 'f'.repeat(32)

/** Bodies no write endpoint accepts, with the code each gets. */
const MALFORMED_BODIES: [string, string, number][] = [
  ['empty body', '', 9207],
  ['truncated JSON', '{"name": "x', 9207],
  ['trailing garbage', '{"name": "x"} x', 9207],
  ['a JSON array', '[]', 9000],
  ['a JSON string', '"tsig"', 9000],
  ['a JSON number', '42', 9000],
  ['JSON null', 'null', 9000],
]

async function otherAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `xfr-other-${unique('a')}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

describe('account collections: malformed bodies', () => {
  for (const col of ['tsigs', 'peers', 'acls']) {
    it.each(MALFORMED_BODIES)(`POST /${col} with %s is refused`, async (_, body, code) => {
      const before = (await api('GET', `${base}/${col}`)).body.result.length
      refused(await raw('POST', `${base}/${col}`, body), 400, code)
      expect((await api('GET', `${base}/${col}`)).body.result.length).toBe(before)
    })
  }

  it('a body that is not UTF-8 is refused with 9208', async () => {
    refused(await raw('POST', `${base}/acls`, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), 400, 9208)
  })
})

describe('TSIG keys', () => {
  const good = () => ({ name: `${unique('k')}.example`, algo: 'hmac-sha256.', secret: SECRET })

  it.each([
    ['name as a number', { name: 42 }],
    ['name null', { name: null }],
    ['name an object', { name: { x: 1 } }],
    ['name of 100 KB', { name: BIG }],
    ['name of 100 KB in labels', { name: 'a.'.repeat(50_000) + 'example' }],
    ['algo missing', { algo: undefined }],
    ['algo unknown', { algo: 'hmac-sha3-256' }],
    ['algo empty', { algo: '' }],
    ['algo only a dot', { algo: '.' }],
    ['algo as an array', { algo: ['hmac-sha256.'] }],
    ['algo of 100 KB', { algo: BIG }],
    ['secret empty', { secret: '' }],
    ['secret not base64', { secret: 'not base64 at all!!' }],
    ['secret base64url', { secret: '-_-_-_-_-_-_-_-_-_-_-_-_' }],
    ['secret without padding', { secret: 'YWJjZGVmZ2hpamtsbW5vcHE' }],
    ['secret a number', { secret: 1234567890 }],
    ['secret of 100 KB', { secret: 'A'.repeat(100_000) }],
  ])('POST with %s is 400 9000 and stores nothing', async (_, change) => {
    const before = (await api('GET', `${base}/tsigs`)).body.result
    refused(await api('POST', `${base}/tsigs`, { ...good(), ...change }), 400, 9000)
    expect((await api('GET', `${base}/tsigs`)).body.result).toEqual(before)
  })

  it('PUT with a bad body leaves the key unchanged', async () => {
    const key = await newTsig()
    for (const body of [
      { ...good(), secret: 'short' },
      { ...good(), algo: 'md5' },
      { name: key.name },
      [],
    ]) {
      refused(await api('PUT', `${base}/tsigs/${key.id}`, body), 400, 9000)
      expect((await api('GET', `${base}/tsigs/${key.id}`)).body.result).toEqual(key)
    }
    refused(await raw('PUT', `${base}/tsigs/${key.id}`, '{'), 400, 9207)
    expect((await api('GET', `${base}/tsigs/${key.id}`)).body.result).toEqual(key)
  })

  it('unknown fields are not stored or echoed', async () => {
    const res = await api('POST', `${base}/tsigs`, { ...good(), id: MISSING, extra: 'x' })
    expect(res.status).toBe(200)
    expect(res.body.result.id).not.toBe(MISSING)
    expect(Object.keys(res.body.result).sort()).toEqual(['algo', 'id', 'name', 'secret'])
  })

  it.each([
    ['not hex', 'zz'.repeat(16)],
    ['too short', 'abc'],
    ['upper case', 'A'.repeat(32)],
    ['too long', 'a'.repeat(33)],
    ['huge', 'a'.repeat(5000)],
  ])('a key id %s is 400 10200 on GET, PUT, DELETE', async (_, id) => {
    refused(await api('GET', `${base}/tsigs/${id}`), 400, 10200)
    refused(await api('PUT', `${base}/tsigs/${id}`, good()), 400, 10200)
    refused(await api('DELETE', `${base}/tsigs/${id}`), 400, 10200)
  })

  it('a well-formed id of no key is 404 10200; another account cannot reach ours', async () => {
    refused(await api('GET', `${base}/tsigs/${MISSING}`), 404, 10200)
    refused(await api('PUT', `${base}/tsigs/${MISSING}`, good()), 404, 10200)
    refused(await api('DELETE', `${base}/tsigs/${MISSING}`), 404, 10200)
    const key = await newTsig()
    const other = `/accounts/${await otherAccount()}/secondary_dns`
    refused(await api('GET', `${other}/tsigs/${key.id}`), 404, 10200)
    refused(await api('PUT', `${other}/tsigs/${key.id}`, good()), 404, 10200)
    refused(await api('DELETE', `${other}/tsigs/${key.id}`), 404, 10200)
    expect((await api('GET', `${base}/tsigs/${key.id}`)).body.result).toEqual(key)
  })

  it('an account that does not exist is 404 1003', async () => {
    refused(await api('GET', `/accounts/${MISSING}/secondary_dns/tsigs`), 404, 1003)
    refused(await api('POST', `/accounts/${MISSING}/secondary_dns/tsigs`, good()), 404, 1003)
    // An account id that is not 32-hex matches no route.
    refused(await api('GET', `/accounts/not-an-account/secondary_dns/peers`), 400, 7000)
  })
})

describe('peers', () => {
  it.each([
    ['name missing', { name: undefined }],
    ['name empty', { name: '' }],
    ['name blank', { name: '   ' }],
    ['name of 100 KB', { name: BIG }],
    ['name a number', { name: 5 }],
    ['ip not an address', { ip: 'not-an-ip' }],
    ['ip out of range', { ip: '256.1.1.1' }],
    ['ip with a port', { ip: '192.0.2.1:53' }],
    ['ip a CIDR', { ip: '192.0.2.0/24' }],
    ['ip with leading zeros', { ip: '192.0.02.1' }],
    ['ip with an IPv6 zone', { ip: 'fe80::1%eth0' }],
    ['ip empty', { ip: '' }],
    ['ip of 100 KB', { ip: BIG }],
    ['ip a number', { ip: 3221225985 }],
    ['port 0', { ip: '192.0.2.1', port: 0 }],
    ['port 65536', { ip: '192.0.2.1', port: 65536 }],
    ['port -1', { ip: '192.0.2.1', port: -1 }],
    ['port 1.5', { ip: '192.0.2.1', port: 1.5 }],
    ['port as a string', { ip: '192.0.2.1', port: '53' }],
    ['port without ip', { port: 53 }],
    ['ixfr_enable a string', { ixfr_enable: 'true' }],
    ['ixfr_enable a number', { ixfr_enable: 1 }],
    ['tsig_id not hex', { tsig_id: 'nope' }],
    ['tsig_id a number', { tsig_id: 7 }],
    ['tsig_id an object', { tsig_id: { id: MISSING } }],
  ])('POST with %s is 400 9000 and stores nothing', async (_, change) => {
    const before = (await api('GET', `${base}/peers`)).body.result
    refused(await api('POST', `${base}/peers`, { name: unique('p'), ...change }), 400, 9000)
    expect((await api('GET', `${base}/peers`)).body.result).toEqual(before)
  })

  it('a tsig_id of no key (or of another account’s key) is 400 10208, on POST and PUT', async () => {
    const before = (await api('GET', `${base}/peers`)).body.result
    refused(await api('POST', `${base}/peers`, { name: unique('p'), tsig_id: MISSING }), 400, 10208)
    expect((await api('GET', `${base}/peers`)).body.result).toEqual(before)

    const otherBase = `/accounts/${await otherAccount()}/secondary_dns`
    const foreignKey = await created(`${otherBase}/tsigs`, {
      name: `${unique('k')}.example`,
      algo: 'hmac-sha256',
      secret: SECRET,
    })
    const peer = await newPeer()
    const res = await api('PUT', `${base}/peers/${peer.id}`, {
      name: peer.name,
      ip: '192.0.2.1',
      tsig_id: foreignKey.id,
    })
    refused(res, 400, 10208)
    expect((await api('GET', `${base}/peers/${peer.id}`)).body.result).toEqual(peer)
  })

  it('numbers JSON cannot hold (1e400) and a body over the size limit are refused', async () => {
    const before = (await api('GET', `${base}/peers`)).body.result
    refused(
      await raw('POST', `${base}/peers`, '{"name":"p","ip":"192.0.2.1","port":1e400}'),
      400,
      9000
    )
    const huge = await raw('POST', `${base}/peers`, JSON.stringify({ name: 'a'.repeat(3_000_000) }))
    expect(huge.status).toBeGreaterThanOrEqual(400)
    expect(huge.status).toBeLessThan(500)
    expect(huge.body.success).toBe(false)
    expect((await api('GET', `${base}/peers`)).body.result).toEqual(before)
  })

  it('PUT with bad fields leaves the peer unchanged', async () => {
    const key = await newTsig()
    const peer = await created(`${base}/peers`, {
      name: unique('p'),
      ip: '192.0.2.9',
      port: 5353,
      ixfr_enable: true,
      tsig_id: key.id,
    })
    for (const body of [
      { name: peer.name, ip: '192.0.2.9', port: 70000 },
      { name: peer.name, ip: 'nope' },
      { name: '' },
      'peer',
    ]) {
      refused(await api('PUT', `${base}/peers/${peer.id}`, body), 400, 9000)
      expect((await api('GET', `${base}/peers/${peer.id}`)).body.result).toEqual(peer)
    }
  })

  it('ids: malformed 400 10201, missing or another account’s 404 10201', async () => {
    refused(await api('GET', `${base}/peers/xyz`), 400, 10201)
    refused(await api('PUT', `${base}/peers/xyz`, { name: 'p' }), 400, 10201)
    refused(await api('PUT', `${base}/peers/${MISSING}`, { name: 'p' }), 404, 10201)
    refused(await api('DELETE', `${base}/peers/${MISSING}`), 404, 10201)
    const peer = await newPeer()
    const other = `/accounts/${await otherAccount()}/secondary_dns`
    refused(await api('GET', `${other}/peers/${peer.id}`), 404, 10201)
    refused(await api('PUT', `${other}/peers/${peer.id}`, { name: 'x' }), 404, 10201)
    refused(await api('DELETE', `${other}/peers/${peer.id}`), 404, 10201)
    expect((await api('GET', `${base}/peers/${peer.id}`)).body.result).toEqual(peer)
  })
})

describe('ACLs', () => {
  it.each([
    ['name missing', { name: undefined }],
    ['name of 100 KB', { name: BIG }],
    ['ip_range missing', { ip_range: undefined }],
    ['ip_range null', { ip_range: null }],
    ['ip_range not an address', { ip_range: 'everyone' }],
    ['ip_range prefix 33', { ip_range: '192.0.2.0/33' }],
    ['ip_range prefix 129', { ip_range: '2001:db8::/129' }],
    ['ip_range prefix negative', { ip_range: '192.0.2.0/-1' }],
    ['ip_range prefix 1.5', { ip_range: '192.0.2.0/1.5' }],
    ['ip_range prefix empty', { ip_range: '192.0.2.0/' }],
    ['ip_range prefix with leading zero', { ip_range: '192.0.2.0/024' }],
    ['ip_range two slashes', { ip_range: '192.0.2.0/24/8' }],
    ['ip_range octet 256', { ip_range: '192.0.2.256/32' }],
    ['ip_range with leading zeros', { ip_range: '010.0.0.0/8' }],
    ['ip_range of 100 KB', { ip_range: BIG }],
    ['ip_range an array', { ip_range: ['192.0.2.0/24'] }],
    ['ip_range a number', { ip_range: 24 }],
  ])('POST with %s is 400 9000 and stores nothing', async (_, change) => {
    const before = (await api('GET', `${base}/acls`)).body.result
    refused(
      await api('POST', `${base}/acls`, {
        name: unique('acl'),
        ip_range: '192.0.2.0/24',
        ...change,
      }),
      400,
      9000
    )
    expect((await api('GET', `${base}/acls`)).body.result).toEqual(before)
  })

  it('PUT with a bad range leaves the ACL unchanged; bad and missing ids are refused', async () => {
    const acl = await created(`${base}/acls`, { name: unique('acl'), ip_range: '198.51.100.0/24' })
    refused(
      await api('PUT', `${base}/acls/${acl.id}`, { name: acl.name, ip_range: '10.0.0.0/40' }),
      400,
      9000
    )
    expect((await api('GET', `${base}/acls/${acl.id}`)).body.result).toEqual(acl)
    refused(await api('GET', `${base}/acls/1234`), 400, 10202)
    refused(
      await api('PUT', `${base}/acls/${MISSING}`, { name: 'x', ip_range: '10.0.0.0/8' }),
      404,
      10202
    )
    const other = `/accounts/${await otherAccount()}/secondary_dns`
    refused(await api('DELETE', `${other}/acls/${acl.id}`), 404, 10202)
    expect((await api('GET', `${base}/acls/${acl.id}`)).body.result).toEqual(acl)
  })
})

describe('zone settings', () => {
  async function secondaryWithIncoming() {
    const zone = await zoneOfType('secondary')
    const peer = await created(`${base}/peers`, { name: unique('primary'), ip: '198.51.100.7' })
    const incoming = await created(`/zones/${zone.id}/secondary_dns/incoming`, {
      name: zone.name,
      peers: [peer.id],
      auto_refresh_seconds: 86400,
    })
    return { zone, peer, incoming }
  }

  it.each(MALFORMED_BODIES)('POST incoming with %s is refused', async (_, body, code) => {
    const zone = await zoneOfType('secondary')
    refused(await raw('POST', `/zones/${zone.id}/secondary_dns/incoming`, body), 400, code)
    refused(await api('GET', `/zones/${zone.id}/secondary_dns/incoming`), 404, 10203)
  })

  it('incoming: wrong types, missing fields and bad peers are 400 and change nothing', async () => {
    const { zone, peer, incoming } = await secondaryWithIncoming()
    const path = `/zones/${zone.id}/secondary_dns/incoming`
    const good = { name: zone.name, peers: [peer.id], auto_refresh_seconds: 3600 }
    const cases: [unknown, number][] = [
      [{ ...good, name: undefined }, 9000],
      [{ ...good, name: BIG }, 9000],
      [{ ...good, name: `other-${zone.name}` }, 9000],
      [{ ...good, peers: undefined }, 9000],
      [{ ...good, peers: [] }, 9000],
      [{ ...good, peers: peer.id }, 9000],
      [{ ...good, peers: [peer.id, peer.id] }, 9000],
      [{ ...good, peers: ['nope'] }, 9000],
      [{ ...good, peers: [null] }, 9000],
      [
        { ...good, peers: Array.from({ length: 26 }, (_, i) => i.toString(16).padStart(32, '0')) },
        9000,
      ],
      [{ ...good, peers: [MISSING] }, 10208],
      [{ ...good, auto_refresh_seconds: '3600' }, 9000],
      [{ ...good, auto_refresh_seconds: 1.5 }, 9000],
      [{ ...good, auto_refresh_seconds: -1 }, 9000],
      [{ ...good, auto_refresh_seconds: 0 }, 9000],
      [{ ...good, auto_refresh_seconds: 1e12 }, 9000],
      [{ ...good, auto_refresh_seconds: undefined }, 9000],
      [{ ...good, auto_refresh_seconds: null }, 9000],
    ]
    for (const [body, code] of cases) {
      refused(await api('PUT', path, body), 400, code)
      expect((await api('GET', path)).body.result).toEqual(incoming)
    }
    refused(await api('POST', path, good), 400, 10204)
    expect((await api('GET', path)).body.result).toEqual(incoming)
  })

  it('incoming peers of another account are 400 10208', async () => {
    const zone = await zoneOfType('secondary')
    const otherBase = `/accounts/${await otherAccount()}/secondary_dns`
    const foreign = await created(`${otherBase}/peers`, { name: unique('p'), ip: '192.0.2.1' })
    const res = await api('POST', `/zones/${zone.id}/secondary_dns/incoming`, {
      name: zone.name,
      peers: [foreign.id],
      auto_refresh_seconds: 3600,
    })
    refused(res, 400, 10208)
    expect(res.body.errors[0]!.message).toContain(foreign.id)
    refused(await api('GET', `/zones/${zone.id}/secondary_dns/incoming`), 404, 10203)
  })

  it('incoming on a primary zone, outgoing on a secondary zone: 400 10205', async () => {
    const full = await createZone('primary')
    const peer = await newPeer()
    refused(
      await api('POST', `/zones/${full.id}/secondary_dns/incoming`, {
        name: full.name,
        peers: [peer.id],
        auto_refresh_seconds: 3600,
      }),
      400,
      10205
    )
    refused(await api('GET', `/zones/${full.id}/secondary_dns/incoming`), 404, 10203)
    refused(await api('POST', `/zones/${full.id}/secondary_dns/force_axfr`), 400, 10205)

    const secondary = await zoneOfType('secondary')
    refused(
      await api('POST', `/zones/${secondary.id}/secondary_dns/outgoing`, {
        name: secondary.name,
        peers: [peer.id],
      }),
      400,
      10205
    )
    refused(await api('GET', `/zones/${secondary.id}/secondary_dns/outgoing`), 404, 10203)
    refused(await api('POST', `/zones/${secondary.id}/secondary_dns/outgoing/enable`), 404, 10203)
    refused(await api('POST', `/zones/${secondary.id}/secondary_dns/outgoing/disable`), 404, 10203)
    refused(
      await api('POST', `/zones/${secondary.id}/secondary_dns/outgoing/force_notify`),
      400,
      1004
    )
    expect(
      (await api('GET', `/zones/${secondary.id}/secondary_dns/outgoing/status`)).body.result
    ).toBe('Disabled')
  })

  it('outgoing: bad bodies are 400 and change nothing; enable/disable need settings', async () => {
    const zone = await createZone('primary')
    const path = `/zones/${zone.id}/secondary_dns/outgoing`
    refused(await api('POST', `${path}/enable`), 404, 10203)
    refused(await api('POST', `${path}/force_notify`), 400, 1004)
    for (const [, body, code] of MALFORMED_BODIES) refused(await raw('POST', path, body), 400, code)
    const peer = await newPeer()
    const out = await created(path, { name: zone.name, peers: [peer.id] })
    for (const [body, code] of [
      [{ name: zone.name, peers: [MISSING] }, 10208],
      [{ name: zone.name, peers: 'all' }, 9000],
      [{ name: zone.name, peers: [{ id: peer.id }] }, 9000],
      [{ name: 17, peers: [peer.id] }, 9000],
      [{ peers: [peer.id] }, 9000],
      [{ name: zone.name }, 9000],
    ] as [unknown, number][]) {
      refused(await api('PUT', path, body), 400, code)
      expect((await api('GET', path)).body.result).toEqual(out)
    }
    refused(await raw('PUT', path, '{"name":'), 400, 9207)
    expect((await api('GET', path)).body.result).toEqual(out)
  })

  it('zone ids that are malformed or of no zone are refused, not 500', async () => {
    for (const id of ['xyz', MISSING, 'a'.repeat(5000)]) {
      for (const [method, suffix] of [
        ['GET', 'incoming'],
        ['POST', 'incoming'],
        ['DELETE', 'outgoing'],
        ['POST', 'outgoing/enable'],
        ['GET', 'outgoing/status'],
        ['POST', 'force_axfr'],
      ] as const) {
        const res = await api(
          method,
          `/zones/${id}/secondary_dns/${suffix}`,
          method === 'GET' ? undefined : {}
        )
        expect(
          res.status,
          `${method} ${suffix} ${JSON.stringify(res.body)}`
        ).toBeGreaterThanOrEqual(400)
        expect(res.status).toBeLessThan(500)
        expect(res.body.success).toBe(false)
        expect(typeof res.body.errors[0]?.code).toBe('number')
      }
    }
  })
})

describe('catalog settings', () => {
  it('bad bodies are 400 and leave the catalog as it was', async () => {
    const account = await otherAccount()
    const path = `/accounts/${account}/secondary_dns/catalog`
    for (const [, body, code] of MALFORMED_BODIES) refused(await raw('PUT', path, body), 400, code)
    refused(await api('GET', path), 404, 10210)
    const peer = await created(`/accounts/${account}/secondary_dns/peers`, { name: unique('p') })
    const catalog = await api('PUT', path, {
      name: `${unique('catalog')}.invalid`,
      peers: [peer.id],
    })
    expect(catalog.status).toBe(200)
    for (const [body, code] of [
      [{ name: catalog.body.result.name, peers: [MISSING] }, 10208],
      [{ name: catalog.body.result.name, peers: [peer.id], enabled: 'yes' }, 9000],
      [{ name: catalog.body.result.name, peers: [peer.id], enabled: null }, 9000],
      [{ name: BIG, peers: [peer.id] }, 9000],
      [{ name: '.', peers: [peer.id] }, 9000],
      [{ name: catalog.body.result.name }, 9000],
      [{ name: catalog.body.result.name, peers: ['x'] }, 9000],
    ] as [unknown, number][]) {
      refused(await api('PUT', path, body), 400, code)
      expect((await api('GET', path)).body.result).toEqual(catalog.body.result)
    }
  })
})

describe('POST /dns_transfer with bad DNS messages', () => {
  const relay = (body: Uint8Array | string | undefined, headers: Record<string, string> = {}) =>
    raw('POST', '/dns_transfer', body as BodyInit | undefined, 'application/dns-message', {
      'x-edgedns-client-address': '192.0.2.10',
      ...headers,
    })

  it.each([
    ['an empty body', new Uint8Array(0)],
    ['one byte', new Uint8Array([0])],
    ['eleven bytes', new Uint8Array(11)],
    ['more than 65535 bytes', new Uint8Array(65536)],
  ])('%s is 400 1004', async (_, body) => {
    refused(await relay(body), 400, 1004)
  })

  it('a wrong content type, and a client address that is not one, are 400 6003', async () => {
    const query = encodeQuery('example.com', 'AXFR', { id: 1, rd: false })
    refused(await raw('POST', '/dns_transfer', query, 'application/json'), 400, 6003)
    refused(await relay(query, { 'x-edgedns-client-address': 'not-an-ip' }), 400, 6003)
    refused(await relay(query, { 'x-edgedns-client-address': '' }), 400, 6003)
  })

  /** A 12-octet header: id 0x1234, a query, with these section counts. */
  const header = (qd: number, an = 0, ns = 0, ar = 0) =>
    new Uint8Array([
      0x12,
      0x34,
      0,
      0,
      qd >> 8,
      qd & 255,
      an >> 8,
      an & 255,
      ns >> 8,
      ns & 255,
      ar >> 8,
      ar & 255,
    ])

  it.each([
    ['a header alone claiming one question', header(1)],
    ['a header claiming 65535 questions', header(65535)],
    ['a header claiming answers that are not there', header(0, 3, 2, 1)],
    ['no question at all', header(0)],
    ['a question cut in its name', new Uint8Array([...header(1), 7, 0x65, 0x78])],
    ['a question without type and class', new Uint8Array([...header(1), 0])],
    ['a compression pointer loop', new Uint8Array([...header(1), 0xc0, 12, 0, 252, 0, 1])],
    ['random bytes', Uint8Array.from({ length: 300 }, (_, i) => (i * 73 + 11) & 255)],
  ])('%s is answered as DNS (FORMERR/REFUSED), never a 500', async (_, body) => {
    const res: Response = await (exports as any).default.fetch(
      'http://localhost/client/v4/dns_transfer',
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${DEV_TOKEN}`,
          'content-type': 'application/dns-message',
          'x-edgedns-client-address': '192.0.2.10',
        },
        body,
      }
    )
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(res.status, new TextDecoder().decode(bytes)).toBe(200)
    if (bytes.length === 0) return // even the header is unreadable: nothing to answer
    const length = (bytes[0]! << 8) | bytes[1]!
    expect(bytes.length).toBe(length + 2)
    const message = bytes.subarray(2)
    expect(message.subarray(0, 2)).toEqual(body.subarray(0, 2)) // the query's id
    expect(message[2]! & 0x80).toBe(0x80) // QR
    expect([1, 4, 5, 9]).toContain(message[3]! & 0x0f) // FORMERR, NOTIMP, REFUSED, NOTAUTH
  })
})

describe('POST /dns_notify with bad input', () => {
  const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
  const notify = encodeQuery('example.com', 'SOA', { id: 5, opcode: 4, rd: false })

  it.each(MALFORMED_BODIES)('%s is refused', async (_, body, code) => {
    refused(await raw('POST', '/dns_notify', body), 400, code)
  })

  it.each([
    ['client_ip missing', { message: b64(notify) }],
    ['client_ip a number', { client_ip: 3221225985, message: b64(notify) }],
    ['client_ip not an address', { client_ip: 'not-an-ip', message: b64(notify) }],
    ['client_ip a CIDR', { client_ip: '192.0.2.0/24', message: b64(notify) }],
    ['client_ip of 100 KB', { client_ip: BIG, message: b64(notify) }],
    ['message missing', { client_ip: '192.0.2.1' }],
    ['message not base64', { client_ip: '192.0.2.1', message: '***' }],
    ['message empty', { client_ip: '192.0.2.1', message: '' }],
    ['message one byte', { client_ip: '192.0.2.1', message: b64(new Uint8Array([1])) }],
    ['message shorter than a header', { client_ip: '192.0.2.1', message: b64(new Uint8Array(11)) }],
    ['message of 100 KB', { client_ip: '192.0.2.1', message: 'A'.repeat(100_000) }],
    ['message of 66,000 octets', { client_ip: '192.0.2.1', message: 'A'.repeat(88_000) }],
    ['an unknown field', { client_ip: '192.0.2.1', message: b64(notify), zone: 'x' }],
  ])('%s is 400 9000', async (_, body) => {
    refused(await api('POST', '/dns_notify', body), 400, 9000)
  })

  it('a NOTIFY whose TSIG record is malformed is answered FORMERR, not 500', async () => {
    const zone = await zoneOfType('secondary')
    const keyName = `${unique('notify')}.example`
    const tsig = await created(`${base}/tsigs`, {
      name: keyName,
      algo: 'hmac-sha256.',
      secret: SECRET,
    })
    const key = parseTsigKey(`hmac-sha256:${keyName}:${SECRET}`)
    const peer = await created(`${base}/peers`, {
      name: unique('primary'),
      ip: '198.51.100.77',
      tsig_id: tsig.id,
    })
    await created(`/zones/${zone.id}/secondary_dns/incoming`, {
      name: zone.name,
      peers: [peer.id],
      auto_refresh_seconds: 86400,
    })
    const query = encodeQuery(zone.name, 'SOA', { id: 21, opcode: 4, rd: false })
    const { message } = await signMessage(query, key, { time: Math.floor(Date.now() / 1000) })
    const send = async (m: Uint8Array) => {
      const res = await api('POST', '/dns_notify', { client_ip: '198.51.100.77', message: b64(m) })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return decodeMessage(Uint8Array.from(atob(res.body.result.message), (ch) => ch.charCodeAt(0)))
    }
    expect((await send(message)).rcode).toBe(0) // well signed: accepted
    // The TSIG record follows the question: its owner (the key name), type, class, TTL, rdlength.
    const classAt = query.length + keyName.length + 2 + 2
    const rdlengthAt = classAt + 6
    const classIn = message.slice()
    classIn[classAt] = 0
    classIn[classAt + 1] = 1
    const notLast = new Uint8Array([...message, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4, 192, 0, 2, 1])
    notLast[11] = 2 // ARCOUNT: the TSIG, then an A record
    const longer = new Uint8Array([...message, 0])
    longer[rdlengthAt + 1]! += 1
    const shortRdata = message.slice(0, rdlengthAt + 5)
    shortRdata[rdlengthAt] = 0
    shortRdata[rdlengthAt + 1] = 3
    for (const bad of [classIn, notLast, longer, shortRdata]) {
      expect((await send(bad)).rcode).toBe(1) // FORMERR
    }
  })

  it.each([
    [
      'a header claiming 65535 questions',
      new Uint8Array([0, 9, 0x20, 0, 255, 255, 0, 0, 0, 0, 0, 0]),
    ],
    [
      'a header claiming records not there',
      new Uint8Array([0, 9, 0x20, 0, 0, 1, 0, 5, 0, 5, 0, 5]),
    ],
    ['garbage after a header', new Uint8Array([0, 9, 0x20, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12])],
    ['a query (not a NOTIFY)', encodeQuery('example.com', 'SOA', { id: 9, rd: false })],
  ])('%s is answered with a DNS error rcode, never a 500', async (_, message) => {
    const res = await api('POST', '/dns_notify', { client_ip: '192.0.2.1', message: b64(message) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const answer = res.body.result.message
    expect(answer === null || typeof answer === 'string').toBe(true)
    if (answer !== null) {
      const bytes = Uint8Array.from(atob(answer), (ch) => ch.charCodeAt(0))
      expect([1, 5]).toContain(bytes[3]! & 0x0f) // FORMERR or REFUSED
    }
  })
})
