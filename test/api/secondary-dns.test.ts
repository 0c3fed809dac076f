/**
 * Cloudflare's secondary-DNS configuration API: TSIG keys, peers and ACLs of an account, and the
 * incoming / outgoing configuration of a zone; their validation, permissions, what deletion
 * refuses, and what a zone's deletion erases.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { eraseDeletedZone } from '../../workers/api/src/zones/erase.ts'
import { api, createZone, DEFAULT_ACCOUNT, expectError } from './helpers.ts'
import { exportZone, importZone } from './import-export-helpers.ts'

const base = `/accounts/${DEFAULT_ACCOUNT}/secondary_dns`
const SECRET = btoa('0123456789abcdef0123456789abcdef')
let n = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${n++}`

async function created(path: string, body: unknown): Promise<any> {
  const res = await api('POST', path, body)
  if (res.status !== 200) throw new Error(`POST ${path}: ${JSON.stringify(res.body)}`)
  return res.body.result
}

const newTsig = (name = `${unique('key')}.example.`) =>
  created(`${base}/tsigs`, { name, algo: 'hmac-sha256.', secret: SECRET })
const newPeer = (name = unique('peer')) => created(`${base}/peers`, { name })

async function zoneOfType(type: 'full' | 'secondary'): Promise<{ id: string; name: string }> {
  const name = `${unique(type)}.example`
  const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT }, type })
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return { id: res.body.result.id, name }
}

async function mint(policies: unknown[]): Promise<string> {
  const res = await api('POST', '/user/tokens', { name: unique('xfr'), policies })
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return res.body.result.value
}

describe('TSIG keys', () => {
  it('creates, gets, lists, replaces and deletes a key in Cloudflare shape', async () => {
    const name = `${unique('Key')}.Example.`
    const key = await created(`${base}/tsigs`, { name, algo: 'HMAC-SHA512', secret: SECRET })
    expect(key).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: name.toLowerCase().slice(0, -1),
      algo: 'hmac-sha512.',
      secret: SECRET,
    })
    expect((await api('GET', `${base}/tsigs/${key.id}`)).body.result).toEqual(key)
    const list = await api('GET', `${base}/tsigs`)
    expect(list.body.result).toContainEqual(key)
    expect(list.body.result_info).toMatchObject({ page: 1, count: list.body.result.length })
    const put = await api('PUT', `${base}/tsigs/${key.id}`, {
      name: 'renamed.' + key.name,
      algo: 'hmac-sha256.',
      secret: SECRET,
    })
    expect(put.body.result).toEqual({ ...key, name: 'renamed.' + key.name, algo: 'hmac-sha256.' })
    const del = await api('DELETE', `${base}/tsigs/${key.id}`)
    expect(del.status).toBe(200)
    expect(del.body.result).toEqual({ id: key.id })
    expectError(await api('GET', `${base}/tsigs/${key.id}`), 404, 10200)
    expectError(await api('DELETE', `${base}/tsigs/${key.id}`), 404, 10200)
  })

  it.each([
    [
      { algo: 'hmac-md5.sig-alg.reg.int.' },
      /not a supported TSIG algorithm; use one of hmac-sha256\., hmac-sha512\./,
    ],
    [{ algo: 'hmac-sha1' }, /algo: "hmac-sha1" is not a supported/],
    [{ secret: 'not base64!' }, /secret: must be base64/],
    [{ secret: btoa('short') }, /secret: must decode to at least 16 bytes/],
    [{ secret: 'A'.repeat(1028) }, /secret: must be at most 1024 characters/],
    [{ name: 'bad name!' }, /name: is not a valid domain name/],
    [{ name: '.' }, /name: must be a domain name, not the root/],
    [{ name: undefined }, /^name: /],
  ])('refuses %j with a 400 naming the field', async (change, message) => {
    const res = await api('POST', `${base}/tsigs`, {
      name: `${unique('k')}.example`,
      algo: 'hmac-sha256',
      secret: SECRET,
      ...change,
    })
    expectError(res, 400, 9000)
    expect(res.body.errors[0]!.message).toMatch(message)
  })

  it('keeps key names unique in the account, on create and on replace', async () => {
    const a = await newTsig()
    const b = await newTsig()
    const dup = await api('POST', `${base}/tsigs`, {
      name: `${a.name}.`,
      algo: 'hmac-sha256',
      secret: SECRET,
    })
    expectError(dup, 400, 10207)
    expect(dup.body.errors[0]!.message).toContain(a.name)
    expectError(
      await api('PUT', `${base}/tsigs/${b.id}`, {
        name: a.name,
        algo: 'hmac-sha256',
        secret: SECRET,
      }),
      400,
      10207
    )
  })

  it('refuses to delete a key a peer uses, naming the peer', async () => {
    const key = await newTsig()
    const peer = await newPeer()
    await api('PUT', `${base}/peers/${peer.id}`, {
      name: peer.name,
      ip: '192.0.2.1',
      tsig_id: key.id,
    })
    const res = await api('DELETE', `${base}/tsigs/${key.id}`)
    expectError(res, 409, 10206)
    expect(res.body.errors[0]!.message).toContain(peer.id)
    await api('PUT', `${base}/peers/${peer.id}`, { name: peer.name })
    expect((await api('DELETE', `${base}/tsigs/${key.id}`)).status).toBe(200)
  })

  it('answers a malformed id with a 400', async () => {
    expectError(await api('GET', `${base}/tsigs/nope`), 400, 10200)
  })
})

describe('peers', () => {
  it('creates a peer from a name, then gives it an address, port, IXFR and a TSIG key', async () => {
    const key = await newTsig()
    const peer = await newPeer()
    expect(peer).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: peer.name,
      ixfr_enable: false,
    })
    const put = await api('PUT', `${base}/peers/${peer.id}`, {
      name: peer.name,
      ip: '2001:DB8:0:0::53',
      ixfr_enable: true,
      tsig_id: key.id,
    })
    expect(put.body.result).toEqual({
      id: peer.id,
      name: peer.name,
      ip: '2001:db8::53',
      port: 53,
      ixfr_enable: true,
      tsig_id: key.id,
    })
    expect((await api('GET', `${base}/peers/${peer.id}`)).body.result).toEqual(put.body.result)
    expect((await api('GET', `${base}/peers`)).body.result).toContainEqual(put.body.result)
    const v4 = await api('PUT', `${base}/peers/${peer.id}`, {
      name: 'p',
      ip: '192.0.2.53',
      port: 5353,
    })
    expect(v4.body.result).toEqual({
      id: peer.id,
      name: 'p',
      ip: '192.0.2.53',
      port: 5353,
      ixfr_enable: false,
    })
    expect((await api('DELETE', `${base}/peers/${peer.id}`)).body.result).toEqual({ id: peer.id })
    expectError(await api('GET', `${base}/peers/${peer.id}`), 404, 10201)
  })

  it.each([
    [{ ip: '192.0.2.256' }, /ip: "192.0.2.256" is not an IPv4 or IPv6 address/],
    [{ ip: '01.2.3.4' }, /ip: .* is not an IPv4 or IPv6 address/],
    [{ ip: '2001:db8::g' }, /ip: .* is not an IPv4 or IPv6 address/],
    [{ ip: '192.0.2.1', port: 0 }, /^port: /],
    [{ ip: '192.0.2.1', port: 65536 }, /^port: /],
    [{ ip: '192.0.2.1', port: 53.5 }, /^port: /],
    [{ port: 53 }, /port: a port needs an ip/],
    [{ tsig_id: 'xyz' }, /tsig_id: /],
    [{ name: '' }, /name: is required/],
  ])('refuses %j with a 400 naming the field', async (change, message) => {
    const peer = await newPeer()
    const res = await api('PUT', `${base}/peers/${peer.id}`, { name: 'p', ...change })
    expectError(res, 400, 9000)
    expect(res.body.errors[0]!.message).toMatch(message)
  })

  it('refuses a tsig_id that is no key of the account, on create and on replace', async () => {
    const missing = 'f'.repeat(32)
    const res = await api('POST', `${base}/peers`, { name: 'p', tsig_id: missing })
    expectError(res, 400, 10208)
    expect(res.body.errors[0]!.message).toContain(missing)
    const peer = await newPeer()
    expectError(
      await api('PUT', `${base}/peers/${peer.id}`, { name: 'p', tsig_id: missing }),
      400,
      10208
    )
    expectError(await api('PUT', `${base}/peers/${'e'.repeat(32)}`, { name: 'p' }), 404, 10201)
  })
})

describe('ACLs', () => {
  it('stores ranges in canonical form and answers CRUD in Cloudflare shape', async () => {
    const acl = await created(`${base}/acls`, { name: 'secondaries', ip_range: '192.0.2.53/28' })
    expect(acl).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'secondaries',
      ip_range: '192.0.2.48/28',
    })
    const put = await api('PUT', `${base}/acls/${acl.id}`, {
      name: 'v6',
      ip_range: '2001:DB8:0::1/32',
    })
    expect(put.body.result).toEqual({ id: acl.id, name: 'v6', ip_range: '2001:db8::/32' })
    const host = await created(`${base}/acls`, { name: 'one', ip_range: '198.51.100.7' })
    expect(host.ip_range).toBe('198.51.100.7/32')
    expect((await api('GET', `${base}/acls/${acl.id}`)).body.result).toEqual(put.body.result)
    expect((await api('GET', `${base}/acls`)).body.result).toContainEqual(put.body.result)
    expect((await api('DELETE', `${base}/acls/${acl.id}`)).body.result).toEqual({ id: acl.id })
    expectError(await api('DELETE', `${base}/acls/${acl.id}`), 404, 10202)
  })

  it.each(['192.0.2.0/33', '300.1.1.1/8', '192.0.2.0/024', '2001:db8::/129', 'abc', '192.0.2.0/'])(
    'refuses the range %s',
    async (ip_range) => {
      const res = await api('POST', `${base}/acls`, { name: 'x', ip_range })
      expectError(res, 400, 9000)
      expect(res.body.errors[0]!.message).toMatch(/^ip_range: .* is not a CIDR range/)
    }
  )
})

describe('outgoing transfers of a primary zone', () => {
  it('creates disabled, enables, disables, replaces and deletes', async () => {
    const zone = await createZone('xfr-out')
    const peer = await newPeer()
    expectError(await api('GET', `/zones/${zone.id}/secondary_dns/outgoing`), 404, 10203)
    expect((await api('GET', `/zones/${zone.id}/secondary_dns/outgoing/status`)).body.result).toBe(
      'Disabled'
    )
    const post = await api('POST', `/zones/${zone.id}/secondary_dns/outgoing`, {
      name: zone.name,
      peers: [peer.id],
    })
    expect(post.status, JSON.stringify(post.body)).toBe(200)
    const serial = (await api('GET', `/zones/${zone.id}/dns_settings`)).body.result
    expect(post.body.result).toEqual({
      id: zone.id,
      name: zone.name,
      peers: [peer.id],
      soa_serial: expect.any(Number),
      created_time: expect.any(String),
      modified_time: expect.any(String),
    })
    expect(serial).toBeDefined()
    expect(post.body.result.soa_serial).toBeGreaterThan(0)
    expectError(
      await api('POST', `/zones/${zone.id}/secondary_dns/outgoing`, { name: zone.name, peers: [] }),
      400,
      10204
    )
    expect((await api('GET', `/zones/${zone.id}/secondary_dns/outgoing/status`)).body.result).toBe(
      'Disabled'
    )
    expect((await api('POST', `/zones/${zone.id}/secondary_dns/outgoing/enable`)).body.result).toBe(
      'Enabled'
    )
    expect((await api('GET', `/zones/${zone.id}/secondary_dns/outgoing/status`)).body.result).toBe(
      'Enabled'
    )
    expect(
      (await api('POST', `/zones/${zone.id}/secondary_dns/outgoing/disable`)).body.result
    ).toBe('Disabled')
    expect((await api('GET', `/zones/${zone.id}/secondary_dns/outgoing/status`)).body.result).toBe(
      'Disabled'
    )
    const put = await api('PUT', `/zones/${zone.id}/secondary_dns/outgoing`, {
      name: `${zone.name}.`,
      peers: [],
    })
    expect(put.body.result.peers).toEqual([])
    expect((await api('GET', `/zones/${zone.id}/secondary_dns/outgoing`)).body.result).toEqual(
      put.body.result
    )
    expect((await api('DELETE', `/zones/${zone.id}/secondary_dns/outgoing`)).body.result).toEqual({
      id: zone.id,
    })
    expectError(await api('POST', `/zones/${zone.id}/secondary_dns/outgoing/enable`), 404, 10203)
    expectError(await api('DELETE', `/zones/${zone.id}/secondary_dns/outgoing`), 404, 10203)
  })

  it('answers the zone current SOA serial, which moves with every change', async () => {
    const zone = await createZone('xfr-serial')
    const first = (
      await api('POST', `/zones/${zone.id}/secondary_dns/outgoing`, { name: zone.name, peers: [] })
    ).body.result
    await api('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: `a.${zone.name}`,
      content: '192.0.2.1',
    })
    const after = (await api('GET', `/zones/${zone.id}/secondary_dns/outgoing`)).body.result
    expect(after.soa_serial).toBeGreaterThan(first.soa_serial)
  })

  it('refuses a secondary zone, a peer of no account peer, and another zone name', async () => {
    const secondary = await zoneOfType('secondary')
    const res = await api('POST', `/zones/${secondary.id}/secondary_dns/outgoing`, {
      name: secondary.name,
      peers: [],
    })
    expectError(res, 400, 10205)
    expect(res.body.errors[0]!.message).toContain('secondary')
    const zone = await createZone('xfr-ref')
    const peer = await newPeer()
    const missing = 'a'.repeat(32)
    const ref = await api('POST', `/zones/${zone.id}/secondary_dns/outgoing`, {
      name: zone.name,
      peers: [peer.id, missing],
    })
    expectError(ref, 400, 10208)
    expect(ref.body.errors[0]!.message).toBe(`peers: ${missing} is not a peer of this account`)
    expectError(await api('GET', `/zones/${zone.id}/secondary_dns/outgoing`), 404, 10203)
    const name = await api('POST', `/zones/${zone.id}/secondary_dns/outgoing`, {
      name: 'other.example',
      peers: [],
    })
    expectError(name, 400, 9000)
    expect(name.body.errors[0]!.message).toContain(zone.name)
    const twice = await api('POST', `/zones/${zone.id}/secondary_dns/outgoing`, {
      name: zone.name,
      peers: [peer.id, peer.id],
    })
    expectError(twice, 400, 9000)
    expect(twice.body.errors[0]!.message).toBe('peers: names the same peer twice')
  })

  it('keeps a peer a zone names from being deleted, until the zone is deleted', async () => {
    const zone = await createZone('xfr-inuse')
    const peer = await newPeer()
    await created(`/zones/${zone.id}/secondary_dns/outgoing`, { name: zone.name, peers: [peer.id] })
    const res = await api('DELETE', `${base}/peers/${peer.id}`)
    expectError(res, 409, 10206)
    expect(res.body.errors[0]!.message).toContain(`the outgoing configuration of ${zone.name}`)
    expect((await api('DELETE', `/zones/${zone.id}`)).status).toBe(200)
    expect((await api('DELETE', `${base}/peers/${peer.id}`)).status).toBe(200)
  })
})

describe('incoming transfers of a secondary zone', () => {
  it('creates, gets, replaces and deletes', async () => {
    const zone = await zoneOfType('secondary')
    const [a, b] = [await newPeer(), await newPeer()]
    const post = await api('POST', `/zones/${zone.id}/secondary_dns/incoming`, {
      name: zone.name,
      peers: [a.id],
      auto_refresh_seconds: 86400,
    })
    expect(post.status, JSON.stringify(post.body)).toBe(200)
    expect(post.body.result).toEqual({
      id: zone.id,
      name: zone.name,
      peers: [a.id],
      auto_refresh_seconds: 86400,
      created_time: expect.any(String),
      modified_time: expect.any(String),
    })
    const put = await api('PUT', `/zones/${zone.id}/secondary_dns/incoming`, {
      name: zone.name,
      peers: [b.id, a.id],
      auto_refresh_seconds: 3600,
    })
    expect(put.body.result).toMatchObject({ peers: [b.id, a.id], auto_refresh_seconds: 3600 })
    expect((await api('GET', `/zones/${zone.id}/secondary_dns/incoming`)).body.result).toEqual(
      put.body.result
    )
    expectError(await api('DELETE', `${base}/peers/${b.id}`), 409, 10206)
    expect((await api('DELETE', `/zones/${zone.id}/secondary_dns/incoming`)).body.result).toEqual({
      id: zone.id,
    })
    expectError(await api('GET', `/zones/${zone.id}/secondary_dns/incoming`), 404, 10203)
  })

  it('refuses a primary zone, no peers, and a refresh out of bounds', async () => {
    const full = await createZone('xfr-in-full')
    const peer = await newPeer()
    const body = { name: full.name, peers: [peer.id], auto_refresh_seconds: 3600 }
    expectError(await api('POST', `/zones/${full.id}/secondary_dns/incoming`, body), 400, 10205)
    const zone = await zoneOfType('secondary')
    const ok = { ...body, name: zone.name }
    const none = await api('POST', `/zones/${zone.id}/secondary_dns/incoming`, { ...ok, peers: [] })
    expectError(none, 400, 9000)
    expect(none.body.errors[0]!.message).toMatch(
      /^peers: a secondary zone needs at least one primary peer/
    )
    for (const auto_refresh_seconds of [299, 604801, 1.5]) {
      const res = await api('POST', `/zones/${zone.id}/secondary_dns/incoming`, {
        ...ok,
        auto_refresh_seconds,
      })
      expectError(res, 400, 9000)
      expect(res.body.errors[0]!.message).toMatch(/^auto_refresh_seconds: /)
    }
  })
})

describe('permissions', () => {
  it('needs DNS Read on the account to read, DNS Write to change; a zone grant does not reach the account', async () => {
    const zone = await createZone('xfr-perm')
    const reader = await mint([
      {
        permission_groups: [{ name: 'DNS Read' }],
        resources: { [`com.cloudflare.api.account.${DEFAULT_ACCOUNT}`]: '*' },
      },
    ])
    const zoneWriter = await mint([
      {
        permission_groups: [{ name: 'DNS Write' }],
        resources: { [`com.cloudflare.api.account.zone.${zone.id}`]: '*' },
      },
    ])
    expect((await api('GET', `${base}/tsigs`, undefined, reader)).status).toBe(200)
    expectError(
      await api('POST', `${base}/acls`, { name: 'x', ip_range: '192.0.2.0/24' }, reader),
      403,
      10000
    )
    expectError(await api('GET', `${base}/peers`, undefined, zoneWriter), 403, 10000)
    expect(
      (await api('GET', `/zones/${zone.id}/secondary_dns/outgoing/status`, undefined, zoneWriter))
        .status
    ).toBe(200)
    expect(
      (
        await api(
          'POST',
          `/zones/${zone.id}/secondary_dns/outgoing`,
          { name: zone.name, peers: [] },
          zoneWriter
        )
      ).status
    ).toBe(200)
    const zoneReader = await mint([
      {
        permission_groups: [{ name: 'DNS Read' }],
        resources: { [`com.cloudflare.api.account.zone.${zone.id}`]: '*' },
      },
    ])
    expectError(
      await api('POST', `/zones/${zone.id}/secondary_dns/outgoing/enable`, undefined, zoneReader),
      403,
      10000
    )
  })

  it('answers 404 for an account that does not exist', async () => {
    expectError(await api('GET', `/accounts/${'0'.repeat(32)}/secondary_dns/tsigs`), 404, 1003)
  })
})

describe('zone deletion', () => {
  it("erases the zone's incoming and outgoing rows", async () => {
    const primary = await createZone('xfr-erase')
    const secondary = await zoneOfType('secondary')
    const peer = await newPeer()
    await created(`/zones/${primary.id}/secondary_dns/outgoing`, {
      name: primary.name,
      peers: [peer.id],
    })
    await created(`/zones/${secondary.id}/secondary_dns/incoming`, {
      name: secondary.name,
      peers: [peer.id],
      auto_refresh_seconds: 3600,
    })
    for (const z of [primary, secondary]) {
      expect((await api('DELETE', `/zones/${z.id}`)).status).toBe(200)
      await eraseDeletedZone(env.DB, z.id)
    }
    const left = await env.DB.prepare(
      `SELECT zone_id FROM zone_transfers_outgoing WHERE zone_id IN (?1, ?2)
       UNION ALL SELECT zone_id FROM zone_transfers_incoming WHERE zone_id IN (?1, ?2)`
    )
      .bind(primary.id, secondary.id)
      .all()
    expect(left.results).toEqual([])
  })
})

describe('records of a secondary zone', () => {
  it('refuses single, batch and import writes with one error; reads and export work', async () => {
    const zone = await zoneOfType('secondary')
    const records = `/zones/${zone.id}/dns_records`
    const a = { type: 'A', name: `www.${zone.name}`, content: '192.0.2.1' }
    const someId = 'b'.repeat(32)
    const attempts = [
      await api('POST', records, a),
      await api('PUT', `${records}/${someId}`, a),
      await api('PATCH', `${records}/${someId}`, { content: '192.0.2.2' }),
      await api('DELETE', `${records}/${someId}`),
      await api('POST', `${records}/batch`, { posts: [a] }),
      await importZone(zone.id, `www.${zone.name}. 300 IN A 192.0.2.1\n`),
    ]
    for (const res of attempts) {
      expectError(res, 400, 10209)
      expect(res.body.errors[0]!.message).toBe(
        `${zone.name} is a secondary zone: its records come from its primary by zone transfer and cannot be changed through the API`
      )
    }
    const list = await api('GET', records)
    expect(list.status).toBe(200)
    expect(list.body.result.some((r: any) => r.name === a.name)).toBe(false)
    expect((await exportZone(zone.id)).status).toBe(200)
  })
})

describe('writes racing an account move', () => {
  it('are refused with the retryable 503 once the move has fenced the account, changing nothing', async () => {
    const account = (await api('POST', '/accounts', { name: unique('fenced') })).body.result
      .id as string
    const acct = `/accounts/${account}/secondary_dns`
    const zoneName = `${unique('fenced')}.example`
    const zone = (await created('/zones', { name: zoneName, account: { id: account } }))
      .id as string
    const tsig = await created(`${acct}/tsigs`, { name: 'k', algo: 'hmac-sha256', secret: SECRET })
    const peer = await created(`${acct}/peers`, { name: 'p' })
    const acl = await created(`${acct}/acls`, { name: 'a', ip_range: '192.0.2.0/24' })
    await created(`/zones/${zone}/secondary_dns/outgoing`, { name: zoneName, peers: [] })
    const before = await snapshot(account, zone)
    // What a move's fence leaves on the source shard, seen by a write routed before the flip.
    await env.DB.prepare('INSERT INTO shard_fences (account_id, fenced_on) VALUES (?1, ?2)')
      .bind(account, new Date().toISOString())
      .run()
    try {
      const writes = [
        api('POST', `${acct}/tsigs`, { name: 'k2', algo: 'hmac-sha256', secret: SECRET }),
        api('PUT', `${acct}/tsigs/${tsig.id}`, { name: 'k3', algo: 'hmac-sha256', secret: SECRET }),
        api('DELETE', `${acct}/tsigs/${tsig.id}`),
        api('POST', `${acct}/peers`, { name: 'p2' }),
        api('PUT', `${acct}/peers/${peer.id}`, { name: 'p3' }),
        api('DELETE', `${acct}/peers/${peer.id}`),
        api('POST', `${acct}/acls`, { name: 'a2', ip_range: '192.0.2.0/24' }),
        api('PUT', `${acct}/acls/${acl.id}`, { name: 'a3', ip_range: '192.0.2.0/24' }),
        api('DELETE', `${acct}/acls/${acl.id}`),
        api('PUT', `/zones/${zone}/secondary_dns/outgoing`, { name: zoneName, peers: [peer.id] }),
        api('POST', `/zones/${zone}/secondary_dns/outgoing/enable`),
        api('DELETE', `/zones/${zone}/secondary_dns/outgoing`),
      ]
      for (const res of await Promise.all(writes)) {
        expectError(res, 503, 10004)
        expect(res.headers.get('retry-after')).toBe('2')
      }
      expect(await snapshot(account, zone)).toEqual(before)
    } finally {
      await env.DB.prepare('DELETE FROM shard_fences WHERE account_id = ?1').bind(account).run()
    }
  })
})

async function snapshot(account: string, zone: string): Promise<unknown[]> {
  const rows = []
  for (const t of ['transfer_tsigs', 'transfer_peers', 'transfer_acls'])
    rows.push(
      (
        await env.DB.prepare(`SELECT * FROM ${t} WHERE account_id = ?1 ORDER BY id`)
          .bind(account)
          .all()
      ).results
    )
  rows.push(
    (
      await env.DB.prepare('SELECT * FROM zone_transfers_outgoing WHERE zone_id = ?1')
        .bind(zone)
        .all()
    ).results
  )
  return rows
}
