/**
 * The account's catalog zone (RFC 9432 version 2): its settings route
 * (`/accounts/{id}/secondary_dns/catalog`), its content as transferred through `POST /dns_transfer`
 * (SOA, NS invalid., version TXT "2", one PTR per member under its zone id), the membership rule
 * (live primary zones whose outgoing transfers are enabled), the serial moving with every
 * membership change and never going back (a transfer that a change overtakes is broken off),
 * keyset pages, and TSIG with the catalog peers' keys.
 */
import { env } from 'cloudflare:workers'
import { decodeMessage, encodeQuery, type MessageRR } from '../../packages/dns-wire/src/index.ts'
import { parseTsigKey, signMessage } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import {
  catalogMembers,
  catalogNamed,
  servedCatalogRecords,
  type ServedCatalog,
} from '../../workers/api/src/transfers/catalog-zone.ts'
import { api, expectError } from './helpers.ts'
import { SECRET, unique } from './secondary-dns-helpers.ts'
import { messagesOf, relay as relayRequest } from './transfer-relay.ts'

const KEY = parseTsigKey(`hmac-sha256:cat-key:${SECRET}`)
const now = (): number => Math.floor(Date.now() / 1000)

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api(method, path, body)
  expect(res.body.errors, `${method} ${path}`).toEqual([])
  return res.body.result
}

/** A fresh account (its own membership), with a peer at 192.0.2.53 signing with cat-key. */
async function account(): Promise<{ id: string; base: string; peer: string }> {
  const id = (await ok('POST', '/accounts', { name: unique('catalog-account') })).id as string
  const base = `/accounts/${id}/secondary_dns`
  const tsig = await ok('POST', `${base}/tsigs`, {
    name: 'cat-key',
    algo: 'hmac-sha256.',
    secret: SECRET,
  })
  const peer = (await ok('POST', `${base}/peers`, { name: 'bind' })).id as string
  await ok('PUT', `${base}/peers/${peer}`, { name: 'bind', ip: '192.0.2.53', tsig_id: tsig.id })
  return { id, base, peer }
}

async function zoneIn(accountId: string, outgoing: boolean, peer: string) {
  const name = `${unique('member')}.example`
  const id = (await ok('POST', '/zones', { name, account: { id: accountId } })).id as string
  if (outgoing) {
    await ok('POST', `/zones/${id}/secondary_dns/outgoing`, { name, peers: [peer] })
    await ok('POST', `/zones/${id}/secondary_dns/outgoing/enable`)
  }
  return { id, name }
}

async function relay(query: Uint8Array, client = '192.0.2.53'): Promise<Uint8Array[]> {
  return messagesOf(await relayRequest(query, client))
}

/** The records of a signed AXFR of the catalog, in order. */
async function axfr(catalog: string): Promise<MessageRR[]> {
  const query = (
    await signMessage(encodeQuery(catalog, 'AXFR', { id: 3, rd: false }), KEY, {
      time: now(),
    })
  ).message
  const messages = await relay(query)
  expect(messages[0]![3]! & 0x0f).toBe(0)
  return messages.flatMap((m) => decodeMessage(m).answer.filter((rr) => rr.type !== 'TSIG'))
}

const serialOf = (records: MessageRR[]): number => Number(records[0]!.data.split(' ')[2])

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

  it('reads the members in keyset pages', async () => {
    const a = await account()
    const names = []
    for (let i = 0; i < 5; i++) names.push((await zoneIn(a.id, true, a.peer)).name)
    const seen: string[] = []
    for await (const m of catalogMembers(env.DB, a.id, 2)) seen.push(m.name)
    expect(seen).toEqual([...names].sort())
  })

  it('breaks its transfer off when a membership change moves the serial while members are read', async () => {
    const a = await account()
    const catalog = `${unique('catalog')}.example.net`
    await ok('PUT', `${a.base}/catalog`, { name: catalog, peers: [a.peer] })
    await zoneIn(a.id, true, a.peer)
    const read = async (served: ServedCatalog) => {
      const out = []
      for await (const rr of servedCatalogRecords(served)) out.push(rr)
      return out
    }
    expect((await read((await catalogNamed(env as never, catalog))!)).length).toBeGreaterThan(2)
    // The catalog's row is read; a new member moves its serial before its members are read.
    const served = (await catalogNamed(env as never, catalog))!
    await zoneIn(a.id, true, a.peer)
    await expect(read(served)).rejects.toThrow(/changed during its transfer/)
  })

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
