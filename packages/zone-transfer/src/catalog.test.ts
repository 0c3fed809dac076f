import { TYPE_CODES } from '@edgedns/dns-facts'
import { describe, expect, it } from 'vitest'
import { catalogRecords, catalogSoa } from './catalog.ts'

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

async function* members(list: { id: string; name: string }[]) {
  yield* list
}

describe('catalog zone records (RFC 9432 version 2)', () => {
  it('writes the SOA with the given serial and invalid. names', () => {
    expect(catalogSoa('catalog.example.net', 1234)).toEqual({
      name: 'catalog.example.net',
      type: TYPE_CODES.SOA,
      ttl: 0,
      rdata: 'invalid. invalid. 1234 3600 600 2147483646 0',
    })
  })

  it('writes NS invalid., version TXT "2" and one PTR per member under zones.', async () => {
    const rrs = await all(
      catalogRecords(
        'cat.example',
        members([
          { id: 'a1b2', name: 'one.example' },
          { id: 'c3d4', name: 'two.example.' },
        ])
      )
    )
    expect(rrs.map((r) => [r.name, r.type, r.rdata])).toEqual([
      ['cat.example', TYPE_CODES.NS, 'invalid.'],
      ['version.cat.example', TYPE_CODES.TXT, '"2"'],
      ['a1b2.zones.cat.example', TYPE_CODES.PTR, 'one.example.'],
      ['c3d4.zones.cat.example', TYPE_CODES.PTR, 'two.example.'],
    ])
  })

  it('refuses a member id that is not a DNS label', async () => {
    await expect(
      all(catalogRecords('cat.example', members([{ id: 'a.b', name: 'x.example' }])))
    ).rejects.toThrow(/not a DNS label/)
  })
})
