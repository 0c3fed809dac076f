/**
 * Stored-data problems are the server's fault: SERVFAIL in HTTP 200, never a 5xx, not cached.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  BUCKET_HEADER,
  bucketKey,
  bucketOf,
  encodeBucketText,
  headKey,
  zoneKey,
} from '../../packages/kv-layout/src/index.ts'
import { ask, askJson } from './helpers/doh.ts'
import { seedRaw, seedZone } from './helpers/seed.ts'

const SOA = '@      3600 IN SOA  ns1 hostmaster 1 7200 3600 1209600 300'

beforeAll(async () => {
  await seedZone(
    'broken.test',
    `
${SOA}
ok      300 IN A    192.0.2.1
`,
    { buckets: 16 }
  )
  await seedZone(
    'badhead.test',
    `
${SOA}
ok      300 IN A    192.0.2.1
`,
    { buckets: 16 }
  )
  const b = (label: string): string =>
    bucketKey('broken.test', 16, bucketOf(`${label}.broken.test`, 16))
  // Every broken name sits in a bucket of its own, apart from `ok` and the wildcard's bucket.
  const broken = ['rdata', 'notbucket', 'line', 'badset', 'txt']
  expect(new Set([...broken, 'ok', '*'].map(b)).size).toBe(broken.length + 2)
  const line = (label: string, node: string): string =>
    encodeBucketText('broken.test', [[`${label}.broken.test`, node]])
  await seedRaw({
    [b('rdata')]: line('rdata', '[["A",300,["not-an-address"]]]'),
    [b('notbucket')]: JSON.stringify({
      v: 2,
      nodes: { 'notbucket.broken.test': { v: 1, sets: {} } },
    }),
    [b('line')]: `${BUCKET_HEADER}line\t[["A",300,\n`,
    [b('badset')]: line('badset', '[["A","300",["192.0.2.1"]]]'),
    [b('txt')]: line('txt', '[["TXT",300,["\\"unterminated"]]]'),
    [zoneKey('badmeta.test')]: JSON.stringify({ v: 1, id: 'x', name: 'badmeta.test' }),
    // a head newer than head 1 that does not decode: readers take the newest head
    [headKey('badhead.test', 2)]: '2\n{"seq":1,"meta":',
  })
})

describe('SERVFAIL for bad stored data', () => {
  it.each([
    ['rdata in a bucket line that does not encode', 'rdata.broken.test', 'A'],
    ['a bucket value that is not bucket text', 'notbucket.broken.test', 'A'],
    ['a bucket line whose node is not JSON', 'line.broken.test', 'A'],
    ['a node with a bad set', 'badset.broken.test', 'A'],
    ['a TXT string that does not parse', 'txt.broken.test', 'TXT'],
    ['zone metadata that does not decode', 'www.badmeta.test', 'A'],
    ['a head that does not decode', 'ok.badhead.test', 'A'],
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
    const none = await ask('nope.broken.test', 'A')
    expect(none.rcode).toBe('NXDOMAIN')
  })
})
