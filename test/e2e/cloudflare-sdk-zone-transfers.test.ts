/**
 * The official `cloudflare` SDK's zone-transfer clients (`client.dns.zoneTransfers.*`) drive the
 * secondary-DNS configuration API of the real local stack unchanged; only baseURL differs.
 */
import Cloudflare from 'cloudflare'
import { beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'

const cf = new Cloudflare({
  apiToken: inject('stackToken'),
  baseURL: `${inject('stackBase')}/client/v4`,
  maxRetries: 0,
})
const xfr = cf.dns.zoneTransfers
const suffix = Date.now().toString(36)
const SECRET = Buffer.from('sdk-zone-transfer-secret-32bytes').toString('base64')
let account_id = ''

beforeAll(async () => {
  account_id = (await cf.accounts.list()).result[0]!.id
})

describe('official cloudflare SDK: zone transfers', () => {
  it('creates, gets, lists, updates and deletes TSIG keys, peers and ACLs', async () => {
    const tsig = await xfr.tsigs.create({
      account_id,
      name: `sdk-${suffix}.key.`,
      algo: 'hmac-sha512.',
      secret: SECRET,
    })
    expect(tsig).toEqual({
      id: expect.any(String),
      name: `sdk-${suffix}.key`,
      algo: 'hmac-sha512.',
      secret: SECRET,
    })
    expect(await xfr.tsigs.get(tsig.id, { account_id })).toEqual(tsig)
    const tsigs = []
    for await (const t of xfr.tsigs.list({ account_id })) tsigs.push(t)
    expect(tsigs).toContainEqual(tsig)
    const renamed = await xfr.tsigs.update(tsig.id, {
      account_id,
      name: `sdk2-${suffix}.key`,
      algo: 'hmac-sha256',
      secret: SECRET,
    })
    expect(renamed).toMatchObject({ id: tsig.id, name: `sdk2-${suffix}.key`, algo: 'hmac-sha256.' })

    const peer = await xfr.peers.create({ account_id, name: `sdk-peer-${suffix}` })
    expect(peer).toMatchObject({ name: `sdk-peer-${suffix}`, ixfr_enable: false })
    const updated = await xfr.peers.update(peer.id, {
      account_id,
      name: `sdk-peer-${suffix}`,
      ip: '192.0.2.53',
      port: 5353,
      ixfr_enable: true,
      tsig_id: tsig.id,
    })
    expect(updated).toEqual({
      id: peer.id,
      name: `sdk-peer-${suffix}`,
      ip: '192.0.2.53',
      port: 5353,
      ixfr_enable: true,
      tsig_id: tsig.id,
    })
    expect(await xfr.peers.get(peer.id, { account_id })).toEqual(updated)
    const peers = []
    for await (const p of xfr.peers.list({ account_id })) peers.push(p)
    expect(peers).toContainEqual(updated)
    // The key is in use by the peer: refused, with the SDK's error for a 409.
    await expect(xfr.tsigs.delete(tsig.id, { account_id })).rejects.toBeInstanceOf(
      Cloudflare.ConflictError
    )

    const acl = await xfr.acls.create({ account_id, name: 'sdk', ip_range: '192.0.2.10/24' })
    expect(acl).toEqual({ id: expect.any(String), name: 'sdk', ip_range: '192.0.2.0/24' })
    expect(await xfr.acls.get(acl.id, { account_id })).toEqual(acl)
    expect(
      await xfr.acls.update(acl.id, { account_id, name: 'sdk6', ip_range: '2001:db8::/48' })
    ).toEqual({
      id: acl.id,
      name: 'sdk6',
      ip_range: '2001:db8::/48',
    })
    const acls = []
    for await (const a of xfr.acls.list({ account_id })) acls.push(a)
    expect(acls.map((a) => a.id)).toContain(acl.id)
    await expect(
      xfr.acls.create({ account_id, name: 'bad', ip_range: '192.0.2.0/33' })
    ).rejects.toBeInstanceOf(Cloudflare.BadRequestError)

    expect(await xfr.acls.delete(acl.id, { account_id })).toEqual({ id: acl.id })
    expect(await xfr.peers.delete(peer.id, { account_id })).toEqual({ id: peer.id })
    expect(await xfr.tsigs.delete(tsig.id, { account_id })).toEqual({ id: tsig.id })
    await expect(xfr.tsigs.get(tsig.id, { account_id })).rejects.toBeInstanceOf(
      Cloudflare.NotFoundError
    )
  })

  it('configures outgoing transfers of a primary zone: create, get, update, enable, disable, status, delete', async () => {
    const zone = await cf.zones.create({
      account: { id: account_id },
      name: `sdk-out-${suffix}.example`,
    })
    const zone_id = zone.id
    const peer = await xfr.peers.create({ account_id, name: `sdk-out-${suffix}` })
    const created = await xfr.outgoing.create({ zone_id, name: zone.name, peers: [peer.id] })
    expect(created).toMatchObject({ id: zone_id, name: zone.name, peers: [peer.id] })
    expect(created.soa_serial).toBeGreaterThan(0)
    expect(await xfr.outgoing.get({ zone_id })).toEqual(created)
    expect(await xfr.outgoing.status.get({ zone_id })).toBe('Disabled')
    expect(await xfr.outgoing.enable({ zone_id })).toBe('Enabled')
    expect(await xfr.outgoing.status.get({ zone_id })).toBe('Enabled')
    expect(await xfr.outgoing.disable({ zone_id })).toBe('Disabled')
    expect(await xfr.outgoing.status.get({ zone_id })).toBe('Disabled')
    const updated = await xfr.outgoing.update({ zone_id, name: zone.name, peers: [] })
    expect(updated.peers).toEqual([])
    expect(await xfr.outgoing.delete({ zone_id })).toEqual({ id: zone_id })
    await expect(xfr.outgoing.get({ zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError)
    await xfr.peers.delete(peer.id, { account_id })
  })

  it('configures incoming transfers of a secondary zone: create, get, update, delete; its records are read-only', async () => {
    const zone = await cf.zones.create({
      account: { id: account_id },
      name: `sdk-in-${suffix}.example`,
      type: 'secondary',
    })
    const zone_id = zone.id
    const peer = await xfr.peers.create({ account_id, name: `sdk-in-${suffix}` })
    const created = await xfr.incoming.create({
      zone_id,
      name: zone.name,
      peers: [peer.id],
      auto_refresh_seconds: 86400,
    })
    expect(created).toMatchObject({
      id: zone_id,
      name: zone.name,
      peers: [peer.id],
      auto_refresh_seconds: 86400,
    })
    expect(await xfr.incoming.get({ zone_id })).toMatchObject(created)
    const updated = await xfr.incoming.update({
      zone_id,
      name: zone.name,
      peers: [peer.id],
      auto_refresh_seconds: 3600,
    })
    expect(updated.auto_refresh_seconds).toBe(3600)
    await expect(
      cf.dns.records.create({
        zone_id,
        type: 'A',
        name: `www.${zone.name}`,
        content: '192.0.2.1',
        ttl: 1,
      })
    ).rejects.toBeInstanceOf(Cloudflare.BadRequestError)
    await expect(
      xfr.outgoing.create({ zone_id, name: zone.name, peers: [] })
    ).rejects.toBeInstanceOf(Cloudflare.BadRequestError)
    expect(await xfr.incoming.delete({ zone_id })).toEqual({ id: zone_id })
    await xfr.peers.delete(peer.id, { account_id })
  })
})
