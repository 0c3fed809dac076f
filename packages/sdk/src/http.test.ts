import { describe, expect, it } from 'vitest'
import { EdgeDns } from './client.ts'
import { EdgeDnsError } from './errors.ts'
import { envelope, failure, scripted } from './test-fetch.ts'

describe('transport', () => {
  it('sends the token, unwraps the envelope and surfaces the change sequence', async () => {
    const { fetch, calls } = scripted(() =>
      envelope({ id: 'r1', name: 'www.example.com' }, {}, { 'x-edgedns-change-seq': '42' })
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test/client/v4/', token: 'tok', fetch })
    const rec = await client.records.create('z1', { type: 'A', name: 'www', content: '192.0.2.1' })
    expect(rec).toEqual({ id: 'r1', name: 'www.example.com' })
    expect(rec.changeSeq).toBe(42)
    expect(client.lastChangeSeq).toBe(42)
    expect(calls[0]!.url.href).toBe('http://dns.test/client/v4/zones/z1/dns_records')
    expect(calls[0]!.headers.authorization).toBe('Bearer tok')
    expect(calls[0]!.body).toEqual({ type: 'A', name: 'www', content: '192.0.2.1' })
  })

  it('throws one typed error with status, code, message and pointer', async () => {
    const { fetch } = scripted(() =>
      failure(400, 9005, 'Content for A record must be a valid IPv4 address.', '/posts/3')
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', token: 't', fetch })
    const err = await client.records.batch('z', { posts: [] }).catch((e) => e)
    expect(err).toBeInstanceOf(EdgeDnsError)
    expect(err).toMatchObject({
      kind: 'api',
      status: 400,
      code: 9005,
      pointer: '/posts/3',
      message: 'Content for A record must be a valid IPv4 address.',
    })
  })

  it('reports network failures and non-JSON errors as EdgeDnsError', async () => {
    const down = new EdgeDns({
      baseUrl: 'http://dns.test',
      fetch: async () => {
        throw new TypeError('connection refused')
      },
    })
    await expect(down.zones.get('z')).rejects.toMatchObject({ kind: 'network', status: 0 })
    const html = new EdgeDns({
      baseUrl: 'http://dns.test',
      fetch: async () => new Response('<h1>bad gateway</h1>', { status: 502 }),
    })
    await expect(html.zones.get('z')).rejects.toMatchObject({
      kind: 'api',
      status: 502,
      code: 0,
      message: '<h1>bad gateway</h1>',
    })
  })

  it('turns record filters into the dotted query the API reads', async () => {
    const { fetch, calls } = scripted(() =>
      envelope([], {
        result_info: { page: 1, per_page: 10, count: 0, total_count: 0, total_pages: 1 },
      })
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    for await (const _ of client.records.list('z', {
      type: 'A',
      name: { endswith: '.example.com' },
      comment: { absent: true },
      tag: { present: 'env' },
      proxied: false,
      per_page: 10,
    }))
      void _
    const q = calls[0]!.url.searchParams
    expect(Object.fromEntries(q)).toEqual({
      type: 'A',
      'name.endswith': '.example.com',
      'comment.absent': '',
      'tag.present': 'env',
      proxied: 'false',
      page: '1',
      per_page: '10',
    })
  })

  it('exports as text with Accept: text/plain', async () => {
    const { fetch, calls } = scripted(
      () => new Response('$ORIGIN example.com.\n', { headers: { 'content-type': 'text/plain' } })
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    expect(await client.records.export('z')).toBe('$ORIGIN example.com.\n')
    expect(calls[0]!.headers.accept).toBe('text/plain')
  })
})
