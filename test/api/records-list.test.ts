import { beforeAll, describe, expect, it } from 'vitest'
import { api, createZone, expectError } from './helpers.ts'

let z: { id: string; name: string }
beforeAll(async () => {
  z = await createZone('list')
  const posts = [
    {
      type: 'A',
      name: 'www',
      content: '192.0.2.1',
      comment: 'Web server',
      tags: ['env:prod', 'team:web'],
    },
    { type: 'A', name: 'api', content: '192.0.2.2', proxied: true, tags: ['env:staging'] },
    { type: 'AAAA', name: 'www', content: '2001:db8::1', ttl: 600 },
    { type: 'TXT', name: '@', content: 'v=spf1 -all', comment: 'SPF' },
    { type: 'MX', name: '@', content: 'mail.example.net', priority: 10 },
    { type: 'CNAME', name: 'blog', content: 'hosting.example.net', tags: ['team:blog'] },
  ]
  const res = await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })
  expect(res.status).toBe(200)
})

async function names(query: string): Promise<string[]> {
  const res = await api('GET', `/zones/${z.id}/dns_records?${query}`)
  expect(res.status).toBe(200)
  return res.body.result.map(
    (r: any) => `${r.type} ${r.name.replace(`.${z.name}`, '').replace(z.name, '@')}`
  )
}

describe('records list: filters', () => {
  it('orders by type by default', async () => {
    expect(await names('')).toEqual(['A api', 'A www', 'AAAA www', 'CNAME blog', 'MX @', 'TXT @'])
  })
  it('filters by type', async () => expect(await names('type=A')).toEqual(['A api', 'A www']))
  it('filters by exact name, case-insensitively, with or without trailing dot', async () => {
    expect(await names(`name.exact=WWW.${z.name}.`)).toEqual(['A www', 'AAAA www'])
    expect(await names(`name=www.${z.name}`)).toEqual(['A www', 'AAAA www'])
  })
  it('filters by name contains / startswith / endswith', async () => {
    expect(await names('name.contains=blog')).toEqual(['CNAME blog'])
    expect(await names('name.startswith=api.')).toEqual(['A api'])
    expect(await names(`name.endswith=.${z.name}&type=A`)).toEqual(['A api', 'A www'])
  })
  it('filters by content', async () => {
    expect(await names('content.exact=192.0.2.2')).toEqual(['A api'])
    expect(await names('content.startswith=192.0.2.')).toEqual(['A api', 'A www'])
    expect(await names('content.contains=SPF1')).toEqual(['TXT @'])
    expect(await names('content.endswith=example.net')).toEqual(['CNAME blog', 'MX @'])
  })
  it('filters by proxied', async () => expect(await names('proxied=true')).toEqual(['A api']))
  it('filters by comment', async () => {
    expect(await names('comment.present=')).toEqual(['A www', 'TXT @'])
    expect(await names('comment.absent=')).toEqual(['A api', 'AAAA www', 'CNAME blog', 'MX @'])
    expect(await names('comment.contains=web')).toEqual(['A www'])
    expect(await names('comment=SPF')).toEqual(['TXT @'])
  })
  it('filters by tags', async () => {
    expect(await names('tag.present=env')).toEqual(['A api', 'A www'])
    expect(await names('tag.absent=env')).toEqual(['AAAA www', 'CNAME blog', 'MX @', 'TXT @'])
    expect(await names('tag.exact=env:prod')).toEqual(['A www'])
    expect(await names('tag.startswith=env:stag')).toEqual(['A api'])
    expect(await names('tag=team')).toEqual(['A www', 'CNAME blog'])
    expect(await names('tag=team:blog')).toEqual(['CNAME blog'])
    expect(await names('tag.present=env&tag.present=team&tag_match=any')).toEqual([
      'A api',
      'A www',
      'CNAME blog',
    ])
    expect(await names('tag.present=env&tag.present=team')).toEqual(['A www'])
  })
  it('combines filters with match=any', async () => {
    expect(await names('type=MX&proxied=true&match=any')).toEqual(['A api', 'MX @'])
  })
  it('searches across fields', async () =>
    expect(await names('search=hosting')).toEqual(['CNAME blog']))
  it('narrows by search whatever match says, and searches tags, not their JSON text', async () => {
    expect(await names('match=any&type=CNAME&name.contains=api&search=blog')).toEqual([
      'CNAME blog',
    ])
    expect(await names('search=team:web')).toEqual(['A www'])
    expect(await names('search=%5B%5D')).toEqual([])
    expect(await names('search=%22')).toEqual([])
  })
  it('finds content given as the API would store it for the named type', async () => {
    expect(await names('type=CNAME&content.exact=Hosting.Example.NET.')).toEqual(['CNAME blog'])
    expect(await names('type=AAAA&content=2001:0DB8:0:0::1')).toEqual(['AAAA www'])
    expect(await names('type=MX&content=mail.example.net.')).toEqual(['MX @'])
  })
  it('finds content without a type as given, or as a host name or IPv6 address is stored', async () => {
    expect(await names('content=Hosting.Example.NET.')).toEqual(['CNAME blog'])
    expect(await names('content.exact=2001:0DB8:0:0::1')).toEqual(['AAAA www'])
    expect(await names('content=192.0.2.2')).toEqual(['A api'])
    expect(await names('content=hosting.example.ne')).toEqual([])
  })
  it('orders by name, content, ttl, proxied in both directions', async () => {
    expect(await names('order=name&direction=desc&type=A')).toEqual(['A www', 'A api'])
    expect(await names('order=ttl&direction=desc&per_page=1')).toEqual(['AAAA www'])
    expect(await names('order=proxied&direction=desc&per_page=1')).toEqual(['A api'])
    expect(await names('type=A&order=content&per_page=2')).toEqual(['A www', 'A api'])
  })
})

describe('records list: paging', () => {
  it('pages with result_info and answers past the end with an empty result', async () => {
    const p1 = await api('GET', `/zones/${z.id}/dns_records?per_page=4`)
    expect(p1.body.result).toHaveLength(4)
    expect(p1.body.result_info).toEqual({
      page: 1,
      per_page: 4,
      count: 4,
      total_count: 6,
      total_pages: 2,
    })
    const p2 = await api('GET', `/zones/${z.id}/dns_records?per_page=4&page=2`)
    expect(p2.body.result_info).toMatchObject({ page: 2, count: 2 })
    const p9 = await api('GET', `/zones/${z.id}/dns_records?per_page=4&page=9`)
    expect(p9.status).toBe(200)
    expect(p9.body.result).toEqual([])
  })
  it('rejects bad paging and ordering parameters with a specific message', async () => {
    expectError(await api('GET', `/zones/${z.id}/dns_records?per_page=0`), 400, 9000)
    expectError(await api('GET', `/zones/${z.id}/dns_records?page=abc`), 400, 9000)
    const bad = await api('GET', `/zones/${z.id}/dns_records?order=size`)
    expectError(bad, 400, 9000)
    expect(bad.body.errors[0]!.message).toMatch(/order must be one of/)
    expectError(await api('GET', `/zones/${z.id}/dns_records?tag.exact=novalue`), 400, 9000)
  })
  it.each(['0x10', '1e1', '1.0', '+2', ' 2', '2 ', '-0', '０２'])(
    'takes only decimal digits as an integer: per_page=%j is refused',
    async (v) => {
      const res = await api('GET', `/zones/${z.id}/dns_records?per_page=${encodeURIComponent(v)}`)
      expectError(res, 400, 9000)
      expect(res.body.errors[0]!.message).toMatch(/per_page must be an integer from 1 to/)
    }
  )
  it('takes the last of a repeated parameter', async () => {
    const res = await api('GET', `/zones/${z.id}/dns_records?per_page=2&per_page=3&page=9&page=1`)
    expect(res.body.result_info).toMatchObject({ page: 1, per_page: 3, count: 3 })
  })
})

describe('records list: type', () => {
  it('takes one type in any case', async () =>
    expect(await names('type=aaaa')).toEqual(['AAAA www']))
  it.each(['__proto__', 'A,AAAA', 'NOPE', 'SOA', 'TYPE1'])(
    'refuses type=%j with 9020, as the record API refuses an unknown type',
    async (type) => {
      const res = await api('GET', `/zones/${z.id}/dns_records?type=${encodeURIComponent(type)}`)
      expectError(res, 400, 9020)
      expect(res.body.errors[0]!.message).toContain(`type must be one DNS record type (A, AAAA,`)
      expect(res.body.errors[0]!.message).toContain(JSON.stringify(type))
    }
  )
})

describe('records list: an empty value of a text operator matches every record', () => {
  it.each(['name.endswith', 'name.startswith', 'name.contains', 'content.endswith'])(
    '%s=',
    async (op) => expect(await names(`${op}=`)).toHaveLength(6)
  )
  it('tag.endswith=name: matches every record with the tag', async () =>
    expect(await names('tag.endswith=env:')).toEqual(['A api', 'A www']))
})
