/**
 * Cloudflare's secondary-DNS configuration API, account level: TSIG keys, peers and ACLs; their
 * validation, what deletion refuses, and the permissions of every secondary-DNS route.
 */
import { describe, expect, it } from 'vitest'
import { api, createZone, DEFAULT_ACCOUNT, expectError } from './helpers.ts'
import { base, created, mint, newPeer, newTsig, SECRET, unique } from './secondary-dns-helpers.ts'

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
