/**
 * The export writes every record of an RRset with the TTL the edge serves the set with (the
 * smallest of its records', automatic counted as 300), so BIND, which gives a set its first
 * line's TTL, reads back the TTL that is served: in the whole file and across pages.
 */
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createZone } from './helpers.ts'
import { exportZone, importZone } from './import-export-helpers.ts'

/** `<owner label> <ttl> <type> <rdata>` of the record lines below the apex. */
function lines(text: string, zone: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.includes(`.${zone}.`) && !l.startsWith(';'))
    .map((l) => l.replace(/ ;.*/, '').split(/\s+/))
    .map(
      ([name, ttl, , type, ...rdata]) => `${name!.split('.')[0]} ${ttl} ${type} ${rdata.join(' ')}`
    )
}

async function page(zoneId: string, query: string): Promise<{ text: string; next: string | null }> {
  const res = await (exports as any).default.fetch(
    `http://localhost/client/v4/zones/${zoneId}/dns_records/export${query}`,
    { headers: { authorization: 'Bearer dev-token' } }
  )
  return { text: await res.text(), next: res.headers.get('x-edgedns-next-cursor') }
}

const FILE = [
  '$TTL 3600',
  'm 600 A 192.0.2.1',
  'm 120 A 192.0.2.2',
  'm 1 A 192.0.2.3',
  'm 900 TXT "own set"',
  'n 1 AAAA 2001:db8::1',
  'n 3600 AAAA 2001:db8::2',
].join('\n')

const WANT = [
  'm 120 A 192.0.2.1',
  'm 120 A 192.0.2.2',
  'm 120 A 192.0.2.3',
  'm 900 TXT "own set"',
  'n 300 AAAA 2001:db8::1',
  'n 300 AAAA 2001:db8::2',
]

describe('export TTL of an RRset', () => {
  it("writes every record of a set with the set's served TTL", async () => {
    const z = await createZone('setttl')
    expect((await importZone(z.id, FILE)).status).toBe(200)
    const { text } = await exportZone(z.id)
    expect(lines(text, z.name)).toEqual(WANT)
  })

  it('gives a set split across pages its whole TTL on every page', async () => {
    const z = await createZone('setpage')
    expect((await importZone(z.id, FILE)).status).toBe(200)
    const got: string[] = []
    let next: string | null = ''
    for (let n = 0; next !== null && n < 20; n++) {
      const p = await page(z.id, `?per_page=1${next === '' ? '' : `&cursor=${next}`}`)
      got.push(...lines(p.text, z.name))
      next = p.next
    }
    expect(got).toEqual(WANT)
  })
})
