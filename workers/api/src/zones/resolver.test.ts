import { decodeQuery, encodeResponse } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { dohResolver, ResolverError, txtData, type Exchange } from './resolver.ts'

/** A DoH JSON server answering from `answers` by "name type", recording what it was asked. */
function fakeFetch(answers: Record<string, unknown>, asked: string[] = []): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input))
    asked.push(
      `${url.searchParams.get('name')} ${url.searchParams.get('type')} ${new Headers(init?.headers).get('accept')}`
    )
    const body = answers[`${url.searchParams.get('name')} ${url.searchParams.get('type')}`]
    if (body === undefined) return new Response('nope', { status: 502 })
    return Response.json(body)
  }) as typeof fetch
}

/** The public DNS of `example.com`'s parent: `com` and its two servers. */
const COM = {
  'com SOA': {
    Status: 0,
    Answer: [
      { name: 'com.', type: 6, data: 'a.gtld-servers.net. nstld.verisign-grs.com. 1 1 1 1 1' },
    ],
  },
  'com NS': {
    Status: 0,
    Answer: [
      { name: 'com.', type: 2, data: 'a.gtld-servers.net.' },
      { name: 'com.', type: 2, data: 'b.gtld-servers.net.' },
    ],
  },
}

/** Parent servers by host name: each answers a query with a referral to `delegatedTo` (or fails). */
function parentServers(
  byServer: Record<string, string[] | Error>,
  asked: { server: string; rd: boolean; name: string; type: number }[] = []
): Exchange {
  return async (server, query) => {
    const q = decodeQuery(query)
    asked.push({ server, rd: q.rd, name: q.question.name, type: q.question.type })
    const delegatedTo = byServer[server]
    if (delegatedTo === undefined || delegatedTo instanceof Error)
      throw delegatedTo ?? new Error('connection refused')
    return encodeResponse({
      id: q.id,
      rcode: 'NOERROR',
      question: q.question,
      authority: delegatedTo.map((ns) => ({
        name: q.question.name,
        type: 2,
        ttl: 172800,
        rdata: `${ns}.`,
      })),
    })
  }
}

describe('the ownership resolver', () => {
  it('reads TXT strings (quoted, split, escaped, or bare) through the DoH resolver', async () => {
    const asked: string[] = []
    const dns = dohResolver(
      'https://resolver.test/dns-query',
      fakeFetch(
        {
          '_edgedns-verify.example.com TXT': {
            Status: 0,
            Answer: [
              { name: '_edgedns-verify.example.com.', type: 16, data: '"abc" "def"' },
              { name: '_edgedns-verify.example.com.', type: 16, data: 'bare-value' },
              { name: '_edgedns-verify.example.com.', type: 16, data: '"say \\"hi\\""' },
            ],
          },
        },
        asked
      ),
      parentServers({})
    )
    expect(await dns.txt('_edgedns-verify.example.com')).toEqual([
      'abcdef',
      'bare-value',
      'say "hi"',
    ])
    expect(asked).toEqual(['_edgedns-verify.example.com TXT application/dns-json'])
  })

  it("reads the delegation from the parent zone's servers (RD=0) even when the resolver cannot resolve the zone itself", async () => {
    const asked: string[] = []
    const exchanged: { server: string; rd: boolean; name: string; type: number }[] = []
    const dns = dohResolver(
      'https://resolver.test/dns-query',
      // The zone is delegated to servers that refuse it while it is pending: the resolver's own
      // NS lookup of the zone fails, and is never needed.
      fakeFetch({ ...COM, 'example.com NS': { Status: 2 } }, asked),
      parentServers(
        {
          'a.gtld-servers.net': new Error('no answer within 3000 ms'),
          'b.gtld-servers.net': ['NS1.edgedns.dev', 'ns2.edgedns.dev'],
        },
        exchanged
      )
    )
    expect(await dns.nameServers('example.com')).toEqual(['ns1.edgedns.dev', 'ns2.edgedns.dev'])
    expect(asked.map((a) => a.split(' ').slice(0, 2).join(' '))).toEqual(['com SOA', 'com NS'])
    expect(exchanged).toEqual([
      { server: 'a.gtld-servers.net', rd: false, name: 'example.com', type: 2 },
      { server: 'b.gtld-servers.net', rd: false, name: 'example.com', type: 2 },
    ])
  })

  it('answers nothing for NXDOMAIN and throws a ResolverError when no answer can be had', async () => {
    const dns = dohResolver(
      'https://resolver.test/dns-query',
      fakeFetch({ 'gone.example TXT': { Status: 3 }, ...COM }),
      parentServers({
        'a.gtld-servers.net': new Error('refused'),
        'b.gtld-servers.net': new Error('refused'),
      })
    )
    expect(await dns.txt('gone.example')).toEqual([])
    await expect(dns.txt('down.example')).rejects.toBeInstanceOf(ResolverError)
    const unreachable = await dns.nameServers('example.com').catch((e: unknown) => e)
    expect(unreachable).toBeInstanceOf(ResolverError)
    expect((unreachable as Error).message).toContain('a.gtld-servers.net: refused')
    // No zone above: the resolver fails for the parent name.
    await expect(dns.nameServers('example.org')).rejects.toThrow('the zone above example.org')
  })

  it('joins the character-strings of one TXT record', () => {
    expect(txtData('"a" "b"')).toBe('ab')
    expect(txtData('plain')).toBe('plain')
  })
})
