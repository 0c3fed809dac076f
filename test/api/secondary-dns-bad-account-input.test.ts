/**
 * Bad input to the account-level zone-transfer API (TSIG keys, peers, ACLs): malformed and wrongly
 * shaped bodies, values out of range, ids that are malformed or belong to another account. Every
 * answer is a 4xx in the Cloudflare envelope with a specific code (never a 500), and a refused
 * write leaves what was stored as it was.
 */
import { describe, expect, it } from 'vitest'
import { api } from './helpers.ts'
import { base, created, newPeer, newTsig, SECRET, unique } from './secondary-dns-helpers.ts'
import {
  BIG,
  MALFORMED_BODIES,
  MISSING,
  otherAccount,
  raw,
  refused,
} from './secondary-dns-bad-input-helpers.ts'

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
    ['ip unspecified', { ip: '0.0.0.0' }],
    ['ip unspecified (IPv6)', { ip: '::' }],
    ['ip multicast', { ip: '224.0.0.1' }],
    ['ip multicast (IPv6)', { ip: 'ff02::1' }],
    ['ip broadcast', { ip: '255.255.255.255' }],
    ['ip link-local', { ip: '169.254.169.254' }],
    ['ip link-local (IPv6)', { ip: 'fe80::1' }],
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
