/**
 * Stored-data problems are the server's fault: SERVFAIL in HTTP 200, never a 5xx, not cached.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { bucketKey, bucketOf, nodeKey, zoneKey } from '../../packages/kv-layout/src/index.ts'
import { ask, askJson } from './helpers/doh.ts'
import { seedRaw, seedZone } from './helpers/seed.ts'

beforeAll(async () => {
  await seedZone('broken.test', `
@      3600 IN SOA  ns1 hostmaster 1 7200 3600 1209600 300
ok      300 IN A    192.0.2.1
bad     300 IN A    192.0.2.1
`, { layout: 'v1' })
  await seedZone('brokenb.test', `
@      3600 IN SOA  ns1 hostmaster 1 7200 3600 1209600 300
ok      300 IN A    192.0.2.1
`, { buckets: 16 })
  const b = (name: string): string => bucketKey('brokenb.test', 16, bucketOf(name, 16))
  const distinct = ['bad', 'json', 'version', 'node'].map((l) => `${l}.brokenb.test`)
  expect(new Set([...distinct, 'ok.brokenb.test'].map(b)).size).toBe(5)
  await seedRaw({
    [nodeKey('broken.test', 'bad.broken.test')]: JSON.stringify({ v: 1, sets: { A: { ttl: 300, rdata: ['not-an-address'] } } }),
    [nodeKey('broken.test', 'json.broken.test')]: '{not json',
    [nodeKey('broken.test', 'version.broken.test')]: JSON.stringify({ v: 2, sets: {} }),
    [nodeKey('broken.test', 'txt.broken.test')]: JSON.stringify({ v: 1, sets: { TXT: { ttl: 300, rdata: ['"unterminated'] } } }),
    [zoneKey('badmeta.test')]: JSON.stringify({ v: 1, id: 'x', name: 'badmeta.test' }),
    [b('bad.brokenb.test')]: JSON.stringify({ v: 2, nodes: { 'bad.brokenb.test': { v: 1, sets: { A: { ttl: 300, rdata: ['not-an-address'] } } } } }),
    [b('json.brokenb.test')]: '{not json',
    [b('version.brokenb.test')]: JSON.stringify({ v: 3, nodes: {} }),
    [b('node.brokenb.test')]: JSON.stringify({ v: 2, nodes: { 'node.brokenb.test': { v: 7, sets: {} } } }),
  })
})

describe('SERVFAIL for bad stored data', () => {
  it.each([
    ['rdata that does not encode', 'bad.broken.test', 'A'],
    ['a node that is not JSON', 'json.broken.test', 'A'],
    ['a node of an unknown layout version', 'version.broken.test', 'A'],
    ['a TXT string that does not parse', 'txt.broken.test', 'TXT'],
    ['zone metadata that does not decode', 'www.badmeta.test', 'A'],
    ['v2: rdata that does not encode', 'bad.brokenb.test', 'A'],
    ['v2: a bucket that is not JSON', 'json.brokenb.test', 'A'],
    ['v2: a bucket of an unknown version', 'version.brokenb.test', 'A'],
    ['v2: a node of an unknown version inside a bucket', 'node.brokenb.test', 'A'],
  ])('%s', async (_, name, type) => {
    for (const method of ['GET', 'POST'] as const) {
      const r = await ask(name, type, { method, id: 77, edns: {} })
      expect(r.rcode).toBe('SERVFAIL')
      expect(r.message).toMatchObject({ id: 77, answer: [], authority: [] })
      expect(r.message.question[0]?.name).toBe(`${name}.`)
      expect(r.cacheControl).toBe('no-store')
    }
    const json = await askJson(name, type)
    expect(json.status).toBe(200)
    expect(json.body.Status).toBe(2)
    expect(json.headers.get('cache-control')).toBe('no-store')
  })

  it('the rest of the zone still answers', async () => {
    const r = await ask('ok.broken.test', 'A')
    expect(r.answer).toEqual(['ok.broken.test. 300 A 192.0.2.1'])
  })
})
