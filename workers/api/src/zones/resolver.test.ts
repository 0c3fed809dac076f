import { describe, expect, it } from 'vitest'
import { dohResolver, ResolverError, txtData } from './resolver.ts'

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

describe('the DoH ownership resolver', () => {
  it('reads TXT strings (quoted, split, escaped, or bare) and NS targets of the name itself', async () => {
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
          'example.com NS': {
            Status: 0,
            Answer: [
              { name: 'example.com.', type: 2, data: 'NS1.edgedns.dev.' },
              { name: 'example.com.', type: 2, data: 'ns2.edgedns.dev.' },
              { name: 'other.example.', type: 2, data: 'ns.elsewhere.example.' },
            ],
          },
        },
        asked
      )
    )
    expect(await dns.txt('_edgedns-verify.example.com')).toEqual([
      'abcdef',
      'bare-value',
      'say "hi"',
    ])
    expect(await dns.nameServers('example.com')).toEqual(['ns1.edgedns.dev', 'ns2.edgedns.dev'])
    expect(asked[0]).toBe('_edgedns-verify.example.com TXT application/dns-json')
  })

  it('answers nothing for NXDOMAIN and throws a ResolverError for SERVFAIL or an unreachable server', async () => {
    const dns = dohResolver(
      'https://resolver.test/dns-query',
      fakeFetch({ 'gone.example TXT': { Status: 3 }, 'lame.example NS': { Status: 2 } })
    )
    expect(await dns.txt('gone.example')).toEqual([])
    await expect(dns.nameServers('lame.example')).rejects.toBeInstanceOf(ResolverError)
    await expect(dns.txt('down.example')).rejects.toBeInstanceOf(ResolverError)
  })

  it('joins the character-strings of one TXT record', () => {
    expect(txtData('"a" "b"')).toBe('ab')
    expect(txtData('plain')).toBe('plain')
  })
})
