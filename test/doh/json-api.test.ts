/**
 * The JSON API (application/dns-json): how it is selected, its fields, its flags and errors.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { BASE, askJson, fetchDoh, getJson } from './helpers/doh.ts'
import { seedZone } from './helpers/seed.ts'

beforeAll(() =>
  seedZone(
    'json.test',
    `
@      3600 IN SOA  ns1 hostmaster 1 7200 3600 1209600 300
www     300 IN A    192.0.2.1
www     600 IN AAAA 2001:db8::1
txt     300 IN TXT  "v=spf1 -all" "second string"
mx      300 IN MX   10 mail.json.test.
`
  )
)

const SOA = {
  name: 'json.test.',
  type: 6,
  TTL: 300,
  data: 'ns1.json.test. hostmaster.json.test. 1 7200 3600 1209600 300',
}

describe('JSON API', () => {
  it('has the Google/Cloudflare fields', async () => {
    const { status, headers, body } = await askJson('www.json.test', 'AAAA')
    expect(status).toBe(200)
    expect(headers.get('content-type')).toBe('application/dns-json')
    expect(headers.get('cache-control')).toBe('max-age=600')
    expect(body).toEqual({
      Status: 0,
      TC: false,
      RD: true,
      RA: false,
      AD: false,
      CD: false,
      Question: [{ name: 'www.json.test.', type: 28 }],
      Answer: [{ name: 'www.json.test.', type: 28, TTL: 600, data: '2001:db8::1' }],
    })
  })

  it('negative answers: Status 3 and the SOA in Authority, no Answer', async () => {
    const { body, headers } = await askJson('none.json.test', 'A')
    expect(body).toEqual({
      Status: 3,
      TC: false,
      RD: true,
      RA: false,
      AD: false,
      CD: false,
      Question: [{ name: 'none.json.test.', type: 1 }],
      Authority: [SOA],
    })
    expect(headers.get('cache-control')).toBe('max-age=300')
  })

  it('NODATA: Status 0, Authority only', async () => {
    const { body } = await askJson('www.json.test', 'MX')
    expect(body.Status).toBe(0)
    expect(body.Answer).toBeUndefined()
    expect(body.Authority).toEqual([SOA])
  })

  it('REFUSED: Status 5, not cached', async () => {
    const { body, headers } = await askJson('www.nowhere-json.invalid', 'A')
    expect(body.Status).toBe(5)
    expect(headers.get('cache-control')).toBe('no-store')
  })

  it('TXT data is the quoted presentation form', async () => {
    const { body } = await askJson('txt.json.test', 'TXT')
    expect(body.Answer).toEqual([
      { name: 'txt.json.test.', type: 16, TTL: 300, data: '"v=spf1 -all" "second string"' },
    ])
  })

  it.each([
    ['Accept header', `name=www.json.test&type=A`, { accept: 'application/dns-json' }],
    ['name without Accept', `name=www.json.test&type=A`, {}],
    ['ct parameter', `name=www.json.test&type=A&ct=application/dns-json`, { accept: '*/*' }],
    ['type defaults to A', `name=www.json.test`, {}],
    ['numeric type', `name=www.json.test&type=1`, {}],
    ['lowercase type', `name=www.json.test&type=a`, {}],
    ['trailing dot', `name=www.json.test.&type=A`, {}],
    ['edns_client_subnet ignored', `name=www.json.test&type=A&edns_client_subnet=1.2.3.0/24`, {}],
    ['random_padding ignored', `name=www.json.test&type=A&random_padding=xxxxxxxx`, {}],
  ] as [string, string, Record<string, string>][])('selected by %s', async (_, query, headers) => {
    const res = await getJson(query, headers)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/dns-json')
    const body: any = await res.json()
    expect(body.Answer).toEqual([{ name: 'www.json.test.', type: 1, TTL: 300, data: '192.0.2.1' }])
  })

  it.each(['', '0', 'false', '1', 'true'])(
    'do=%s and cd=%s are accepted; CD is echoed',
    async (v) => {
      const { status, body } = await askJson('www.json.test', 'A', `&do=${v}&cd=${v}`)
      expect(status).toBe(200)
      expect(body.CD).toBe(v === '1' || v === 'true')
    }
  )

  it.each([
    [
      'cd',
      '2',
      'Invalid CD flag `2`. Expected to be empty or one of `0`, `false`, `1`, or `true`.',
    ],
    [
      'do',
      'yes',
      'Invalid DO flag `yes`. Expected to be empty or one of `0`, `false`, `1`, or `true`.',
    ],
    [
      'cd',
      'TRUE',
      'Invalid CD flag `TRUE`. Expected to be empty or one of `0`, `false`, `1`, or `true`.',
    ],
  ])('invalid %s=%s is 400 with the Cloudflare error text', async (flag, value, error) => {
    const { status, body, headers } = await askJson('www.json.test', 'A', `&${flag}=${value}`)
    expect(status).toBe(400)
    expect(body).toEqual({ error })
    expect(headers.get('access-control-allow-origin')).toBe('*')
  })

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'type, do and cd named after an inherited object property (%s) are 400',
    async (word) => {
      for (const query of [`type=${word}`, `do=${word}`, `cd=${word}`]) {
        const res = await getJson(`name=www.json.test&${query}`)
        expect({ query, status: res.status }).toEqual({ query, status: 400 })
        expect(((await res.json()) as { error: string }).error).toContain(word)
      }
    }
  )

  it.each([
    ['missing name', 'type=A'],
    ['empty name', 'name=&type=A'],
    ['unknown type', 'name=www.json.test&type=BOGUS'],
    ['type out of range', 'name=www.json.test&type=70000'],
    ['label over 63 octets', `name=${'a'.repeat(64)}.json.test`],
    ['name over 255 octets', `name=${Array.from({ length: 9 }, () => 'a'.repeat(30)).join('.')}`],
    ['empty label', 'name=www..json.test'],
  ])('%s is 400 with an error JSON', async (_, query) => {
    const res = await getJson(query)
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toBe('application/dns-json')
    expect(Object.keys((await res.json()) as object)).toEqual(['error'])
  })

  it('dns= wins over Accept: application/dns-json (wire answer)', async () => {
    const res = await fetchDoh(`${BASE}?dns=AAABAAABAAAAAAAAA3d3dwRqc29uBHRlc3QAAAEAAQ`, {
      headers: { accept: 'application/dns-json' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/dns-message')
  })

  it('OPT as a type is FORMERR in the body, not an HTTP error', async () => {
    const { status, body } = await askJson('www.json.test', 'OPT')
    expect(status).toBe(200)
    expect(body.Status).toBe(1)
  })
})
