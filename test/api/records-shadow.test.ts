/**
 * @module Shadowed records (Cloudflare's `shadowed_by_name`, `shadowing_name` and
 * `include_shadow_metadata`): an NS record set below the apex delegates its name, and the records
 * at or below it, other than its own NS/DS/NSEC, are shadowed.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { api, createZone, expectError } from './helpers.ts'

const DIGEST = '1f987cc6583e92df0890718c4281a8ad50a5c8f2c0ae82f8ea7dc08edfdd6d1f'

let z: { id: string; name: string }
/** Record ids by `TYPE relative-name`. */
const ids = new Map<string, string>()
const rel = (name: string) => (name === z.name ? '@' : name.slice(0, -z.name.length - 1))
const id = (key: string) => ids.get(key)!

beforeAll(async () => {
  z = await createZone('shadow')
  const n = (s: string) => (s === '@' ? z.name : `${s}.${z.name}`)
  const posts = [
    { type: 'NS', name: 'sub', content: n('ns1.sub') },
    {
      type: 'DS',
      name: 'sub',
      data: { key_tag: 1, algorithm: 13, digest_type: 2, digest: DIGEST },
    },
    { type: 'TXT', name: 'sub', content: 'at the cut' },
    { type: 'A', name: 'ns1.sub', content: '192.0.2.10' },
    { type: 'A', name: 'www.sub', content: '192.0.2.11' },
    { type: 'NS', name: 'deep.sub', content: n('ns.deep.sub') },
    { type: 'A', name: 'ns.deep.sub', content: '192.0.2.12' },
    { type: 'NS', name: 'lame', content: n('ns1.sub') },
    { type: 'A', name: 'sub-x', content: '192.0.2.13' },
    { type: 'A', name: 'www', content: '192.0.2.14' },
    { type: 'TXT', name: '@', content: 'apex' },
  ]
  const res = await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })
  expect(res.status).toBe(200)
  for (const r of res.body.result.posts) ids.set(`${r.type} ${rel(r.name)}`, r.id)
})

async function list(query: string): Promise<any[]> {
  const res = await api('GET', `/zones/${z.id}/dns_records?per_page=100&${query}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.result
}
const keys = (rs: any[]) => rs.map((r) => `${r.type} ${rel(r.name)}`).sort()

describe('shadowed_by_name', () => {
  it('lists the records at or below the delegation, not its own NS and DS', async () => {
    const rs = await list(`include_shadow_metadata=true&shadowed_by_name=sub.${z.name}`)
    expect(keys(rs)).toEqual(['A ns.deep.sub', 'A ns1.sub', 'A www.sub', 'NS deep.sub', 'TXT sub'])
  })
  it('takes a trailing dot and any case, and combines with other filters whatever match says', async () => {
    expect(
      keys(await list(`include_shadow_metadata=true&shadowed_by_name=SUB.${z.name}.&type=TXT`))
    ).toEqual(['TXT sub'])
    const any = await list(
      `include_shadow_metadata=true&shadowed_by_name=sub.${z.name}&type=TXT&proxied=false&match=any`
    )
    expect(keys(any)).toEqual(['A ns.deep.sub', 'A ns1.sub', 'A www.sub', 'NS deep.sub', 'TXT sub'])
  })
  it('includes NS records below the delegation, and a deeper delegation shadows less', async () => {
    const rs = await list(`include_shadow_metadata=true&shadowed_by_name=deep.sub.${z.name}`)
    expect(keys(rs)).toEqual(['A ns.deep.sub'])
  })
  it('shadows nothing where no NS record set delegates the name', async () => {
    expect(await list(`include_shadow_metadata=true&shadowed_by_name=www.${z.name}`)).toEqual([])
    expect(await list(`include_shadow_metadata=true&shadowed_by_name=nothing.${z.name}`)).toEqual(
      []
    )
  })
  it('requires include_shadow_metadata=true', async () => {
    for (const q of ['', '&include_shadow_metadata=false']) {
      const res = await api('GET', `/zones/${z.id}/dns_records?shadowed_by_name=sub.${z.name}${q}`)
      expectError(res, 400, 9000)
      expect(res.body.errors[0]!.message).toMatch(/requires include_shadow_metadata=true/)
    }
  })
  it('refuses the apex, names outside the zone and invalid names', async () => {
    for (const name of [z.name, 'sub.other.example', 'bad..name', `*.${z.name}`]) {
      const res = await api(
        'GET',
        `/zones/${z.id}/dns_records?include_shadow_metadata=true&shadowed_by_name=${encodeURIComponent(name)}`
      )
      expectError(res, 400, 9000)
      expect(res.body.errors[0]!.message).toMatch(/shadowed_by_name/)
    }
  })
})

describe('shadowing_name', () => {
  it('lists the NS records at the name and at its ancestors below the apex', async () => {
    expect(keys(await list(`shadowing_name=x.ns.deep.sub.${z.name}`))).toEqual([
      'NS deep.sub',
      'NS sub',
    ])
    expect(keys(await list(`shadowing_name=sub.${z.name}`))).toEqual(['NS sub'])
    expect(keys(await list(`shadowing_name=www.${z.name}`))).toEqual([])
  })
  it('refuses the apex and names outside the zone', async () => {
    for (const name of [z.name, 'sub.other.example']) {
      const res = await api('GET', `/zones/${z.id}/dns_records?shadowing_name=${name}`)
      expectError(res, 400, 9000)
      expect(res.body.errors[0]!.message).toMatch(/shadowing_name/)
    }
  })
})

describe('include_shadow_metadata', () => {
  it('adds shadowed_by, is_glue, dead_glue and shadowed_records_count to meta', async () => {
    const rs = await list('include_shadow_metadata=true')
    const meta = Object.fromEntries(rs.map((r) => [`${r.type} ${rel(r.name)}`, r.meta]))
    const sub = [id('NS sub')]
    expect(meta).toEqual({
      'NS sub': { shadowed_records_count: 5 },
      'DS sub': {},
      'TXT sub': { shadowed_by: sub },
      'A ns1.sub': { shadowed_by: sub, is_glue: true },
      'A www.sub': { shadowed_by: sub },
      'NS deep.sub': { shadowed_by: sub, shadowed_records_count: 1 },
      'A ns.deep.sub': {
        shadowed_by: [...sub, id('NS deep.sub')],
        is_glue: true,
        dead_glue: true,
      },
      'NS lame': {},
      'A sub-x': {},
      'A www': {},
      'TXT @': {},
      ...Object.fromEntries(
        rs.filter((r) => r.type === 'NS' && r.name === z.name).map((r) => [`NS @`, {}])
      ),
    })
  })
  it('leaves meta empty without it', async () => {
    for (const r of await list('')) expect(r.meta).toEqual({})
  })
  it('counts the records a page holds, not the page size asked for', async () => {
    const rs = await list('include_shadow_metadata=true&per_page=1001')
    expect(rs.length).toBeLessThan(1001)
    expect(rs.find((r) => r.type === 'TXT' && rel(r.name) === 'sub').meta).toEqual({
      shadowed_by: [id('NS sub')],
    })
  })
  it('refuses a value other than true or false', async () => {
    expectError(
      await api('GET', `/zones/${z.id}/dns_records?include_shadow_metadata=yes`),
      400,
      9000
    )
  })
  it('is answered on get, create, overwrite, edit and batch', async () => {
    const q = '?include_shadow_metadata=true'
    const base = `/zones/${z.id}/dns_records`
    const got = await api('GET', `${base}/${id('A www.sub')}${q}`)
    expect(got.body.result.meta).toEqual({ shadowed_by: [id('NS sub')] })
    expect((await api('GET', `${base}/${id('A www.sub')}`)).body.result.meta).toEqual({})

    const made = await api('POST', `${base}${q}`, {
      type: 'AAAA',
      name: `ns1.sub.${z.name}`,
      content: '2001:db8::10',
    })
    expect(made.body.result.meta).toEqual({ shadowed_by: [id('NS sub')], is_glue: true })
    const put = await api('PUT', `${base}/${made.body.result.id}${q}`, {
      type: 'AAAA',
      name: `mail.sub.${z.name}`,
      content: '2001:db8::10',
    })
    expect(put.body.result.meta).toEqual({ shadowed_by: [id('NS sub')] })
    const patched = await api('PATCH', `${base}/${made.body.result.id}${q}`, {
      name: `mail.${z.name}`,
    })
    expect(patched.body.result.meta).toEqual({})

    const batch = await api('POST', `${base}/batch${q}`, {
      deletes: [{ id: made.body.result.id }],
      posts: [{ type: 'TXT', name: `t.deep.sub.${z.name}`, content: 'x' }],
    })
    expect(batch.status).toBe(200)
    expect(batch.body.result.deletes[0].meta).toEqual({})
    expect(batch.body.result.posts[0].meta).toEqual({
      shadowed_by: [id('NS sub'), id('NS deep.sub')],
    })
    const deep = await api('GET', `${base}/${id('NS deep.sub')}${q}`)
    expect(deep.body.result.meta).toEqual({
      shadowed_by: [id('NS sub')],
      shadowed_records_count: 2,
    })
    await api('DELETE', `${base}/${batch.body.result.posts[0].id}`)
  })
  it('refuses a bad value before a write changes anything', async () => {
    const res = await api('POST', `/zones/${z.id}/dns_records?include_shadow_metadata=1`, {
      type: 'A',
      name: `never.${z.name}`,
      content: '192.0.2.99',
    })
    expectError(res, 400, 9000)
    expect(await list(`name.exact=never.${z.name}`)).toEqual([])
  })
})
