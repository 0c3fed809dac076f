/**
 * The account's catalog zone (RFC 9432 version 2): its settings route
 * (`/accounts/{id}/secondary_dns/catalog`), its content as transferred through `POST /dns_transfer`
 * (SOA, NS invalid., version TXT "2", one PTR per member under its zone id), the membership rule
 * (live primary zones whose outgoing transfers are enabled: a zone whose type changes from or to
 * a primary type leaves or joins), the serial moving with every membership change and never going
 * back, and TSIG with the catalog peers' keys. Transfers read one version of the catalog:
 * secondary-dns-catalog-versions.test.ts.
 */
import { env } from 'cloudflare:workers'
import { encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { signMessage } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it, vi } from 'vitest'
import { api, expectError } from './helpers.ts'
import { unique } from './secondary-dns-helpers.ts'
import { account, axfr, KEY, now, ok, ptrs, relay, serialOf, zoneIn } from './catalog-helpers.ts'

describe('catalog zone settings', () => {
  it('is made by PUT, read by GET, and removed by DELETE (then 404, code 10210)', async () => {
    const a = await account()
    expectError(await api('GET', `${a.base}/catalog`), 404, 10210)
    const name = `${unique('catalog')}.example.net`
    const made = await ok('PUT', `${a.base}/catalog`, {
      name: `${name.toUpperCase()}.`,
      peers: [a.peer],
    })
    expect(made).toMatchObject({ name, peers: [a.peer], enabled: true })
    expect(made.soa_serial).toBeGreaterThanOrEqual(now() - 5)
    expect(await ok('GET', `${a.base}/catalog`)).toEqual(made)
    expect(await ok('DELETE', `${a.base}/catalog`)).toEqual({ id: made.id })
    expectError(await api('GET', `${a.base}/catalog`), 404, 10210)
    expectError(await api('DELETE', `${a.base}/catalog`), 404, 10210)
  })

  it('refuses a name that is a zone served here or another account catalog (400, code 10211)', async () => {
    const a = await account()
    const b = await account()
    const zone = await zoneIn(a.id, false, a.peer)
    expectError(await api('PUT', `${a.base}/catalog`, { name: zone.name, peers: [] }), 400, 10211)
    const name = `${unique('catalog')}.example.net`
    await ok('PUT', `${a.base}/catalog`, { name, peers: [] })
    expectError(await api('PUT', `${b.base}/catalog`, { name, peers: [] }), 400, 10211)
  })

  it('refuses peers that are not the account peers (400, code 10208) and changes nothing', async () => {
    const a = await account()
    const b = await account()
    const name = `${unique('catalog')}.example.net`
    const res = await api('PUT', `${a.base}/catalog`, { name, peers: [b.peer] })
    expectError(res, 400, 10208)
    expect(res.body.errors[0]!.message).toContain(b.peer)
    expectError(await api('GET', `${a.base}/catalog`), 404, 10210)
    expectError(
      await api('PUT', `${a.base}/catalog`, { name: 'not a name!', peers: [] }),
      400,
      9000
    )
  })

  it('keeps a peer the catalog names from being deleted (409, code 10206)', async () => {
    const a = await account()
    await ok('PUT', `${a.base}/catalog`, {
      name: `${unique('catalog')}.example.net`,
      peers: [a.peer],
    })
    const res = await api('DELETE', `${a.base}/peers/${a.peer}`)
    expectError(res, 409, 10206)
    expect(res.body.errors[0]!.message).toMatch(/catalog/)
  })
})

describe('catalog zone content, transferred through /dns_transfer', () => {
  it('lists the live primary zones with outgoing enabled, one PTR under each zone id', async () => {
    const a = await account()
    const catalog = `${unique('catalog')}.example.net`
    await ok('PUT', `${a.base}/catalog`, { name: catalog, peers: [a.peer] })
    const member = await zoneIn(a.id, true, a.peer)
    const disabled = await zoneIn(a.id, false, a.peer)
    await ok('POST', `/zones/${disabled.id}/secondary_dns/outgoing`, {
      name: disabled.name,
      peers: [],
    })
    await zoneIn(a.id, false, a.peer)
    const records = await axfr(catalog)
    expect(records.map((r) => [r.name, r.type, r.data])).toEqual([
      [
        `${catalog}.`,
        'SOA',
        expect.stringMatching(/^invalid\. invalid\. \d+ 3600 600 2147483646 0$/),
      ],
      [`${catalog}.`, 'NS', 'invalid.'],
      [`version.${catalog}.`, 'TXT', '"2"'],
      [`${member.id}.zones.${catalog}.`, 'PTR', `${member.name}.`],
      [`${catalog}.`, 'SOA', records[0]!.data],
    ])
  })

  it('moves the serial on every membership change, and a re-added zone is a new member', async () => {
    const a = await account()
    const catalog = `${unique('catalog')}.example.net`
    await ok('PUT', `${a.base}/catalog`, { name: catalog, peers: [a.peer] })
    const s0 = serialOf(await axfr(catalog))
    const z = await zoneIn(a.id, true, a.peer)
    const s1 = serialOf(await axfr(catalog))
    expect(s1).toBeGreaterThan(s0)
    await ok('POST', `/zones/${z.id}/secondary_dns/outgoing/disable`)
    const s2 = serialOf(await axfr(catalog))
    expect(s2).toBeGreaterThan(s1)
    expect((await axfr(catalog)).filter((r) => r.type === 'PTR')).toEqual([])
    await ok('POST', `/zones/${z.id}/secondary_dns/outgoing/enable`)
    const s3 = serialOf(await axfr(catalog))
    expect(s3).toBeGreaterThan(s2)
    await ok('DELETE', `/zones/${z.id}`)
    const afterDelete = await axfr(catalog)
    expect(serialOf(afterDelete)).toBeGreaterThan(s3)
    expect(afterDelete.filter((r) => r.type === 'PTR')).toEqual([])
    const again = (await ok('POST', '/zones', { name: z.name, account: { id: a.id } })).id as string
    await ok('POST', `/zones/${again}/secondary_dns/outgoing`, { name: z.name, peers: [a.peer] })
    await ok('POST', `/zones/${again}/secondary_dns/outgoing/enable`)
    const readded = await axfr(catalog)
    expect(serialOf(readded)).toBeGreaterThan(serialOf(afterDelete))
    expect(readded.filter((r) => r.type === 'PTR').map((r) => r.name)).toEqual([
      `${again}.zones.${catalog}.`,
    ])
    // Deleted and made again, the catalog continues its serial.
    const last = serialOf(readded)
    await ok('DELETE', `${a.base}/catalog`)
    const remade = await ok('PUT', `${a.base}/catalog`, { name: catalog, peers: [a.peer] })
    expect(remade.soa_serial).toBeGreaterThan(last)
  })

  it('leaves out a pending zone while an account move fences it, and keeps an active one', async () => {
    const a = await account()
    const catalog = `${unique('catalog')}.example.net`
    await ok('PUT', `${a.base}/catalog`, { name: catalog, peers: [a.peer] })
    const active = await zoneIn(a.id, true, a.peer)
    const pending = await zoneIn(a.id, true, a.peer)
    // A move's fence sets every live zone 'moving'; a pending one has never been activated.
    const fence = (id: string, activated: string | null) =>
      env.DB.prepare("UPDATE zones SET status = 'moving', activated_on = ?2 WHERE id = ?1")
        .bind(id, activated)
        .run()
    await fence(active.id, '2026-11-01T00:00:00.000Z')
    await fence(pending.id, null)
    expect(ptrs(await axfr(catalog))).toEqual([
      [`${active.id}.zones.${catalog}.`, `${active.name}.`],
    ])
  })

  it('lists primary zones only: a zone made secondary or internal leaves it, moving the serial', async () => {
    const a = await account()
    const catalog = `${unique('catalog')}.example.net`
    await ok('PUT', `${a.base}/catalog`, { name: catalog, peers: [a.peer] })
    const kept = await zoneIn(a.id, true, a.peer)
    const z = await zoneIn(a.id, true, a.peer)
    const member = (zone: { id: string; name: string }) => [
      `${zone.id}.zones.${catalog}.`,
      `${zone.name}.`,
    ]
    const both = await axfr(catalog)
    expect(ptrs(both)).toEqual([member(kept), member(z)].sort((x, y) => x[1]!.localeCompare(y[1]!)))
    // Between primary types (full, partial) it stays a member: the serial stays.
    await ok('PATCH', `/zones/${z.id}`, { type: 'partial' })
    const partial = await axfr(catalog)
    expect(serialOf(partial)).toBe(serialOf(both))
    expect(ptrs(partial)).toEqual(ptrs(both))
    let before = serialOf(partial)
    for (const [type, listed] of [
      ['secondary', false],
      ['full', true],
      ['internal', false],
      ['partial', true],
    ] as const) {
      await ok('PATCH', `/zones/${z.id}`, { type })
      const records = await axfr(catalog)
      expect(serialOf(records), type).toBeGreaterThan(before)
      expect(ptrs(records), type).toEqual(listed ? ptrs(both) : [member(kept)])
      before = serialOf(records)
    }
  })

  it('sends its NOTIFY when a zone type change adds or removes a member, not otherwise', async () => {
    const a = await account()
    // The catalog's peer at a closed port: each NOTIFY round ends within seconds, its failure
    // logged; the catalog is made after its member (the only round before the type changes).
    await ok('PUT', `${a.base}/peers/${a.peer}`, { name: 'bind', ip: '127.0.0.1', port: 9 })
    const z = await zoneIn(a.id, true, a.peer)
    const catalog = `${unique('catalog')}.example.net`
    const warn = vi.spyOn(console, 'warn')
    const rounds = () =>
      warn.mock.calls.filter((c) => c[0] === 'catalog NOTIFY failed' && c[1] === catalog).length
    const roundsReach = async (n: number) => {
      for (let waited = 0; rounds() < n && waited < 10_000; waited += 100)
        await new Promise((r) => setTimeout(r, 100))
      await new Promise((r) => setTimeout(r, 500))
      return rounds()
    }
    try {
      await ok('PUT', `${a.base}/catalog`, { name: catalog, peers: [a.peer] })
      expect(await roundsReach(1)).toBe(1)
      await ok('PATCH', `/zones/${z.id}`, { type: 'partial' })
      await ok('PATCH', `/zones/${z.id}`, { type: 'secondary' })
      // One round after the change to secondary; none after the one to partial.
      expect(await roundsReach(2)).toBe(2)
    } finally {
      warn.mockRestore()
    }
  }, 30_000)

  it('is refused unsigned, from an address outside the ACLs and peers, and when disabled', async () => {
    const a = await account()
    const catalog = `${unique('catalog')}.example.net`
    await ok('PUT', `${a.base}/catalog`, { name: catalog, peers: [a.peer] })
    const unsigned = await relay(encodeQuery(catalog, 'AXFR', { id: 4, rd: false }))
    expect(unsigned[0]![3]! & 0x0f).toBe(5)
    const signed = (
      await signMessage(encodeQuery(catalog, 'AXFR', { id: 5, rd: false }), KEY, {
        time: now(),
      })
    ).message
    expect((await relay(signed, '198.51.100.7'))[0]![3]! & 0x0f).toBe(5)
    await ok('PUT', `${a.base}/catalog`, { name: catalog, peers: [a.peer], enabled: false })
    expect((await relay(signed))[0]![3]! & 0x0f).toBe(5)
  })
})
