import { describe, expect, it } from 'vitest'
import { splitBatch } from './chunking.ts'
import { EdgeDns } from './client.ts'
import type { BatchProgress } from './records.ts'
import { envelope, failure, scripted } from './test-fetch.ts'

const rec = (i: number) => ({ id: `r${i}`, name: `h${i}.example.com` })

describe('records list', () => {
  it('auto-paginates until the last page', async () => {
    const { fetch, calls } = scripted((call) => {
      const page = Number(call.url.searchParams.get('page'))
      const items = page < 3 ? [rec(page * 2), rec(page * 2 + 1)] : [rec(9)]
      return envelope(items, {
        result_info: { page, per_page: 2, count: items.length, total_count: 5, total_pages: 3 },
      })
    })
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    const seen: string[] = []
    for await (const r of client.records.list('z', { per_page: 2 })) seen.push(r.id)
    expect(seen).toEqual(['r2', 'r3', 'r4', 'r5', 'r9'])
    expect(calls.map((c) => c.url.searchParams.get('page'))).toEqual(['1', '2', '3'])
  })
})

describe('batch chunking', () => {
  const posts = Array.from({ length: 7 }, (_, i) => ({
    type: 'A' as const,
    name: `h${i}`,
    content: `192.0.2.${i}`,
  }))

  it('splits in engine order: deletes, patches, puts, posts', () => {
    const chunks = splitBatch(
      { posts: posts.slice(0, 2), deletes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
      2
    )
    expect(chunks).toEqual([
      { deletes: [{ id: 'a' }, { id: 'b' }] },
      { deletes: [{ id: 'c' }], posts: [posts[0]] },
      { posts: [posts[1]] },
    ])
  })

  it('is one request unless asked to chunk', async () => {
    const { fetch, calls } = scripted((c) => envelope({ posts: (c.body as any).posts }))
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    await client.records.batch('z', { posts })
    expect(calls).toHaveLength(1)
  })

  it('applies chunks in order with progress, merging results', async () => {
    let seq = 10
    const { fetch, calls } = scripted((c) =>
      envelope(
        { posts: (c.body as any).posts },
        {},
        { 'x-edgedns-change-seq': String((seq += (c.body as any).posts.length)) }
      )
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    const progress: BatchProgress[] = []
    const res = await client.records.batch(
      'z',
      { posts },
      { chunk: 3, onProgress: (p) => progress.push(p) }
    )
    expect(calls.map((c) => (c.body as any).posts.length)).toEqual([3, 3, 1])
    expect(res.posts).toHaveLength(7)
    expect(res.changeSeq).toBe(17)
    expect(progress.map((p) => [p.done, p.total, p.chunk, p.chunks])).toEqual([
      [3, 7, 1, 3],
      [6, 7, 2, 3],
      [7, 7, 3, 3],
    ])
  })

  it('shrinks the chunk to the limit the server names on 81063', async () => {
    const { fetch, calls } = scripted((c) => {
      const n = (c.body as any).posts.length
      if (n > 2)
        return failure(
          400,
          81063,
          `This batch has ${n} changes; the limit for this account is 2 changes per batch. Split it into several batches.`
        )
      return envelope({ posts: (c.body as any).posts })
    })
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    const res = await client.records.batch('z', { posts }, { chunk: true })
    expect(res.posts).toHaveLength(7)
    expect(calls.map((c) => (c.body as any).posts.length)).toEqual([7, 2, 2, 2, 1])
  })

  it('a failing chunk reports what earlier chunks committed', async () => {
    const { fetch } = scripted((_c, i) =>
      i === 1
        ? failure(400, 81058, 'An identical record already exists.', '/posts/1')
        : envelope({ posts: [] })
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    const err = await client.records.batch('z', { posts }, { chunk: 3 }).catch((e) => e)
    expect(err).toMatchObject({ code: 81058, appliedChanges: 3, pointer: '/posts/1' })
    expect(err.message).toBe('chunk 2/3: An identical record already exists.')
  })
})

describe('import', () => {
  it('posts multipart with the file as a file part and proxied as a string', async () => {
    const { fetch, calls } = scripted(() =>
      envelope(
        { recs_added: 2, total_records_parsed: 3 },
        { messages: [{ code: 81071, message: 'line 1: skipped' }] },
        { 'x-edgedns-change-seq': '5' }
      )
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    const res = await client.records.import('z', 'www A 192.0.2.1\n', { proxied: true })
    expect(res).toEqual({ recs_added: 2, total_records_parsed: 3, messages: ['line 1: skipped'] })
    expect(res.changeSeq).toBe(5)
    const form = calls[0]!.body as FormData
    expect(form.get('proxied')).toBe('true')
    expect(await (form.get('file') as File).text()).toBe('www A 192.0.2.1\n')
    expect(calls[0]!.url.pathname).toBe('/client/v4/zones/z/dns_records/import')
  })
})
