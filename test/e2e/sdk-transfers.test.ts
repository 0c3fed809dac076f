/**
 * @edgedns/sdk's zone transfers against the real local stack: an account's TSIG key, peer, ACL and
 * catalog zone; a primary zone's outgoing transfers (made disabled, enabled, notified); a secondary
 * zone's incoming ones, an AXFR that fails naming its primary, and how its checks stand.
 */
import { collect, EdgeDns, EdgeDnsError } from '@edgedns/sdk'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

const dns = new EdgeDns({ baseUrl: inject('stackBase'), token: inject('stackToken') })
const stamp = Date.now().toString(36)
let accountId = ''
const made: { zones: string[]; peer?: string; tsig?: string; acl?: string } = { zones: [] }

beforeAll(async () => {
  accountId = (await collect(dns.accounts.list()))[0]!.id
})

afterAll(async () => {
  for (const id of made.zones) await dns.zones.delete(id).catch(() => {})
  if (made.peer) await dns.transfers.peers.delete(accountId, made.peer).catch(() => {})
  if (made.tsig) await dns.transfers.tsigs.delete(accountId, made.tsig).catch(() => {})
  if (made.acl) await dns.transfers.acls.delete(accountId, made.acl).catch(() => {})
})

describe('@edgedns/sdk zone transfers against the stack', () => {
  it('makes a key, a peer that uses it and an ACL; a key in use cannot be deleted', async () => {
    const key = await dns.transfers.tsigs.create(accountId, {
      name: `SDK-${stamp}.example.`,
      algo: 'hmac-sha512',
      secret: 'c2RrLXRyYW5zZmVyLXRlc3Qtc2VjcmV0LTMyLW9jdGV0cw==',
    })
    made.tsig = key.id
    expect(key).toMatchObject({ name: `sdk-${stamp}.example`, algo: 'hmac-sha512.' })
    const peer = await dns.transfers.peers.create(accountId, { name: `sdk-${stamp}` })
    made.peer = peer.id
    expect(peer.ip).toBeUndefined()
    const placed = await dns.transfers.peers.update(accountId, peer.id, {
      name: `sdk-${stamp}`,
      ip: '192.0.2.53',
      tsig_id: key.id,
    })
    expect(placed).toMatchObject({
      ip: '192.0.2.53',
      port: 53,
      ixfr_enable: false,
      tsig_id: key.id,
    })
    expect(await dns.transfers.peers.get(accountId, peer.id)).toEqual(placed)
    expect((await dns.transfers.peers.list(accountId)).map((p) => p.id)).toContain(peer.id)
    const refused = await dns.transfers.tsigs.delete(accountId, key.id).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(EdgeDnsError)
    expect(refused).toMatchObject({ status: 409, code: 10206 })
    const acl = await dns.transfers.acls.create(accountId, {
      name: `sdk-${stamp}`,
      ip_range: '192.0.2.200/29',
    })
    made.acl = acl.id
    expect(acl.ip_range).toBe('192.0.2.200/29')
  })

  it('sets up outgoing transfers of a primary zone and the account catalog, then removes them', async () => {
    const zone = await dns.zones.create({ name: `sdk-out-${stamp}.example` })
    made.zones.push(zone.id)
    const out = dns.transfers.outgoing
    const created = await out.create(zone.id, { name: zone.name, peers: [made.peer!] })
    expect(created).toMatchObject({ id: zone.id, peers: [made.peer] })
    expect(await out.status(zone.id)).toBe('Disabled')
    const early = await out.forceNotify(zone.id).catch((e: unknown) => e)
    expect(early).toMatchObject({ status: 400 })
    expect(await out.enable(zone.id)).toBe('Enabled')
    await out.forceNotify(zone.id)
    expect((await out.get(zone.id)).soa_serial).toBeGreaterThan(0)

    const before = await dns.transfers.catalog.get(accountId).catch(() => null)
    const catalog = await dns.transfers.catalog.put(accountId, {
      name: `catalog-sdk-${stamp}.example`,
      peers: [made.peer!],
    })
    expect(catalog).toMatchObject({ peers: [made.peer], enabled: true })
    if (before) {
      const { name, peers, enabled } = before
      await dns.transfers.catalog.put(accountId, { name, peers, enabled })
    } else {
      expect((await dns.transfers.catalog.delete(accountId)).id).toBe(catalog.id)
    }
    expect(await out.disable(zone.id)).toBe('Disabled')
    expect(await out.delete(zone.id)).toEqual({ id: zone.id })
  })

  it('sets up incoming transfers of a secondary zone; an AXFR from a primary that is not there fails', async () => {
    const zone = await dns.zones.create({ name: `sdk-in-${stamp}.example`, type: 'secondary' })
    made.zones.push(zone.id)
    const incoming = dns.transfers.incoming
    const settings = { name: zone.name, peers: [made.peer!], auto_refresh_seconds: 3600 }
    expect(await incoming.create(zone.id, settings)).toMatchObject({ ...settings, serving: false })
    const failed = await incoming.forceAxfr(zone.id).catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(EdgeDnsError)
    expect(failed).toMatchObject({ status: 502, code: 10031 })
    expect((failed as Error).message).toContain('192.0.2.53')
    const held = await incoming.get(zone.id)
    expect(held.serving).toBe(false)
    expect(held.failed_checks).toBeGreaterThanOrEqual(1)
    expect(held.last_error).toContain('192.0.2.53')
    expect(await incoming.delete(zone.id)).toEqual({ id: zone.id })
  })
})
