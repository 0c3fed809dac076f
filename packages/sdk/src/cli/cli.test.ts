import { describe, expect, it } from 'vitest'
import { envelope, scripted } from '../test-fetch.ts'
import { parseArgs } from './args.ts'
import { main } from './main.ts'
import { ProgressBar } from './progress.ts'

function io(env: Record<string, string> = {}) {
  const out: string[] = []
  const err: string[] = []
  return {
    io: {
      env,
      stdout: { write: (s: string) => out.push(s) },
      stderr: { isTTY: false, write: (s: string) => err.push(s) },
    },
    out,
    err,
  }
}

describe('edgedns CLI', () => {
  it('parses positionals and flags', () => {
    expect(
      parseArgs(['apply', 'example.com', 'b.json', '--chunk', '100', '--wait', '--url=http://x'])
    ).toEqual({
      command: 'apply',
      positionals: ['example.com', 'b.json'],
      flags: { chunk: '100', wait: true, url: 'http://x' },
    })
  })

  it('draws a bar', () => {
    const lines: string[] = []
    const bar = new ProgressBar({ isTTY: false, columns: 80, write: (s) => lines.push(s) }, 'apply')
    bar.update(50, 200, 'chunk 1/4')
    expect(lines[0]).toMatch(/^apply \[#####\.{15}\] 25% 50\/200 chunk 1\/4 \d+\.\ds\n$/)
  })

  it('exits 2 with usage on a bad command, 1 on an API error', async () => {
    const a = io()
    expect(await main(['frobnicate'], a.io)).toBe(2)
    expect(a.err.join('')).toContain('unknown command frobnicate')
    const { fetch } = scripted(
      () =>
        new Response(
          JSON.stringify({
            success: false,
            errors: [{ code: 10000, message: 'Authentication error' }],
          }),
          { status: 403 }
        )
    )
    const b = io({ EDGEDNS_URL: 'http://dns.test', EDGEDNS_TOKEN: 't' })
    expect(
      await main(
        ['export', '0123456789abcdef0123456789abcdef'],
        b.io,
        fetch as typeof globalThis.fetch
      )
    ).toBe(1)
    expect(b.err.join('')).toContain('Authentication error (api 403, code 10000)')
  })

  it('export resolves a zone name to its id', async () => {
    const { fetch, calls } = scripted((c) =>
      c.url.pathname.endsWith('/export')
        ? new Response('$ORIGIN example.com.\n')
        : envelope([{ id: 'f'.repeat(32), name: 'example.com' }], {
            result_info: { page: 1, per_page: 50, count: 1, total_count: 1, total_pages: 1 },
          })
    )
    const x = io({ EDGEDNS_URL: 'http://dns.test' })
    expect(await main(['export', 'Example.com'], x.io, fetch as typeof globalThis.fetch)).toBe(0)
    expect(x.out.join('')).toBe('$ORIGIN example.com.\n')
    expect(calls[1]!.url.pathname).toBe(`/client/v4/zones/${'f'.repeat(32)}/dns_records/export`)
  })
})
