/**
 * Cloudflare's secondary-DNS configuration API, zone level: the outgoing configuration of a
 * primary zone and the incoming one of a secondary zone, what a zone's deletion erases, read-only
 * records of secondary zones, and writes racing an account move.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { eraseDeletedZone } from '../../workers/api/src/zones/erase.ts'
import { api, createZone, expectError } from './helpers.ts'
import { exportZone, importZone } from './import-export-helpers.ts'
import { base, created, newPeer, SECRET, unique, zoneOfType } from './secondary-dns-helpers.ts'

describe('outgoing transfers of a primary zone', () => {
  it('notes, while DNSSEC is on, that transfers carry the zone unsigned', async () => {
    const zone = await createZone('xfr-signed')
    const path = `/zones/${zone.id}/secondary_dns/outgoing`
    const plain = await api('POST', path, { name: zone.name, peers: [] })
    expect(plain.body.messages).toEqual([])
    expect((await api('PATCH', `/zones/${zone.id}/dnssec`, { status: 'active' })).status).toBe(200)
    for (const res of [
      await api('PUT', path, { name: zone.name, peers: [] }),
      await api('POST', `${path}/enable`),
    ]) {
      expect(res.status).toBe(200)
      expect(res.body.messages).toEqual([
        { code: 1000, message: expect.stringMatching(/DNSSEC is on.*unsigned/) },
      ])
    }
  })

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
      serving: false,
    })
    const put = await api('PUT', `/zones/${zone.id}/secondary_dns/incoming`, {
      name: zone.name,
      peers: [b.id, a.id],
      auto_refresh_seconds: 3600,
    })
    expect(put.body.result).toMatchObject({ peers: [b.id, a.id], auto_refresh_seconds: 3600 })
    // A GET adds how the zone's checks stand (an error once a background check failed; no next
    // check while one runs).
    const { last_error, next_check_time, ...got } = (
      await api('GET', `/zones/${zone.id}/secondary_dns/incoming`)
    ).body.result
    expect(got).toEqual({ ...put.body.result, failed_checks: expect.any(Number) })
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

  it('refuses SOA values other than its own in its DNS settings, and takes the rest', async () => {
    const zone = await zoneOfType('secondary')
    const path = `/zones/${zone.id}/dns_settings`
    const before = (await api('GET', path)).body.result
    const res = await api('PATCH', path, { soa: { expire: 1209600 }, ns_ttl: 600 })
    expectError(res, 400, 10209)
    expect(res.body.errors[0]!.message).toMatch(/^soa: .* its SOA comes from its primary/)
    expect((await api('GET', path)).body.result).toEqual(before)
    // The settings read and written back whole, the NS TTL changed: the same SOA passes.
    const ttl = await api('PATCH', path, { ...before, ns_ttl: 600 })
    expect(ttl.status, JSON.stringify(ttl.body)).toBe(200)
    expect(ttl.body.result).toEqual({ ...before, ns_ttl: 600 })
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
