/**
 * Bad input to the zone-level zone-transfer API (incoming and outgoing settings and their actions,
 * catalog settings): malformed bodies, values out of range, other accounts' peers, settings on the
 * wrong kind of zone. Every answer is a 4xx in the Cloudflare envelope with a specific code (never
 * a 500), and a refused write leaves what was stored as it was.
 */
import { describe, expect, it } from 'vitest'
import { api, createZone } from './helpers.ts'
import { base, created, newPeer, unique, zoneOfType } from './secondary-dns-helpers.ts'
import {
  BIG,
  MALFORMED_BODIES,
  MISSING,
  otherAccount,
  raw,
  refused,
} from './secondary-dns-bad-input-helpers.ts'

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
    // The settings as written: how the zone's checks stand (a background check moves it) left out.
    const settings = async () => {
      const { failed_checks, last_error, next_check_time, ...rest } = (await api('GET', path)).body
        .result
      expect(failed_checks).toBeTypeOf('number')
      return rest
    }
    for (const [body, code] of cases) {
      refused(await api('PUT', path, body), 400, code)
      expect(await settings()).toEqual(incoming)
    }
    refused(await api('POST', path, good), 400, 10204)
    expect(await settings()).toEqual(incoming)
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
