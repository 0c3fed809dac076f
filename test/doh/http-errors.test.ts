/**
 * HTTP status codes of /dns-query (RFC 8484 §4.2.1; never a 5xx): 400 missing or
 * undecodable query, 405 with Allow, 413 over 65,535 bytes, 415 wrong content type, 404 other
 * paths; a malformed message that has a DNS header is a FORMERR DNS message in HTTP 200.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { BASE, base64url, fetchDoh, getWire, postWire } from './helpers/doh.ts'
import { decodeMessage, encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { seedZone } from './helpers/seed.ts'

beforeAll(() => seedZone('errors.test', 'www 300 IN A 192.0.2.1'))

const query = encodeQuery('www.errors.test', 'A', { id: 0x1234 })
const header12 = new Uint8Array([0x12, 0x34, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0])
const big = new Uint8Array(65536)
big.set(query)

const cases: { name: string; request: () => Promise<Response>; status: number; allow?: string }[] =
  [
    { name: 'GET without dns or name', request: () => fetchDoh(BASE), status: 400 },
    { name: 'GET with an empty dns', request: () => fetchDoh(`${BASE}?dns=`), status: 400 },
    {
      name: 'GET dns not base64url (+ and /)',
      request: () => fetchDoh(`${BASE}?dns=${btoa('\xfb\xff\xfe').replace(/=+$/, '')}`),
      status: 400,
    },
    {
      name: 'GET dns with a bad character',
      request: () => fetchDoh(`${BASE}?dns=AAAA*AAA`),
      status: 400,
    },
    {
      name: 'GET dns of impossible length',
      request: () => fetchDoh(`${BASE}?dns=AAAAA`),
      status: 400,
    },
    {
      name: 'GET dns shorter than a header',
      request: () => getWire(new Uint8Array(11)),
      status: 400,
    },
    { name: 'GET dns over 65,535 bytes', request: () => getWire(big), status: 413 },
    { name: 'POST empty body', request: () => postWire(new Uint8Array(0)), status: 400 },
    {
      name: 'POST body shorter than a header',
      request: () => postWire(new Uint8Array([1, 2, 3])),
      status: 400,
    },
    { name: 'POST body over 65,535 bytes', request: () => postWire(big), status: 413 },
    {
      name: 'POST without content type',
      request: () => fetchDoh(BASE, { method: 'POST', body: query }),
      status: 415,
    },
    {
      name: 'POST as JSON',
      request: () => postWire(query, { 'content-type': 'application/json' }),
      status: 415,
    },
    {
      name: 'POST as dns-json',
      request: () => postWire(query, { 'content-type': 'application/dns-json' }),
      status: 415,
    },
    {
      name: 'PUT',
      request: () => fetchDoh(BASE, { method: 'PUT', body: query }),
      status: 405,
      allow: 'GET, HEAD, POST, OPTIONS',
    },
    {
      name: 'DELETE',
      request: () => fetchDoh(BASE, { method: 'DELETE' }),
      status: 405,
      allow: 'GET, HEAD, POST, OPTIONS',
    },
    {
      name: 'PATCH',
      request: () => fetchDoh(BASE, { method: 'PATCH', body: query }),
      status: 405,
      allow: 'GET, HEAD, POST, OPTIONS',
    },
    {
      name: 'another path',
      request: () => fetchDoh('https://doh.test/resolve?name=x'),
      status: 404,
    },
  ]

describe('HTTP errors', () => {
  it.each(cases)('$name → $status', async ({ request, status, allow }) => {
    const res = await request()
    expect(res.status).toBe(status)
    expect(res.headers.get('cache-control')).toBe('no-store')
    if (allow) expect(res.headers.get('allow')).toBe(allow)
    await res.arrayBuffer()
  })

  it('content type parameters and case are accepted', async () => {
    const res = await postWire(query, { 'content-type': 'Application/DNS-Message; charset=binary' })
    expect(res.status).toBe(200)
    expect(decodeMessage(new Uint8Array(await res.arrayBuffer())).answer).toHaveLength(1)
  })

  it('padded base64url is tolerated', async () => {
    const short = encodeQuery('ww.errors.test', 'A', { id: 0x1234 }) // 32 bytes: one '=' of padding
    const unpadded = base64url(short)
    const padded = unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4)
    expect(padded.length % 4).toBe(0)
    expect(padded).toMatch(/=$/)
    const res = await fetchDoh(`${BASE}?dns=${padded}`)
    expect(res.status).toBe(200)
    expect(decodeMessage(new Uint8Array(await res.arrayBuffer())).id).toBe(0x1234)
  })

  it('HEAD is GET without a body', async () => {
    const res = await fetchDoh(`${BASE}?dns=${base64url(query)}`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/dns-message')
  })
})

/** A query whose first label claims 64 octets (the codec refuses to build one). */
function labelOf64(): Uint8Array {
  const ok = encodeQuery(`${'x'.repeat(63)}.errors.test`, 'A', { id: 0x1234 })
  const bytes = new Uint8Array([...ok.subarray(0, 13), 0x78, ...ok.subarray(13)])
  bytes[12] = 64
  return bytes
}

/** Messages with a readable header but a malformed rest: FORMERR in HTTP 200, not cached. */
const formerr: { name: string; bytes: Uint8Array }[] = [
  { name: 'header only (no question)', bytes: header12 },
  { name: 'truncated question', bytes: query.subarray(0, query.length - 2) },
  { name: 'trailing garbage', bytes: new Uint8Array([...query, 0xde, 0xad]) },
  {
    name: 'two questions',
    bytes: (() => {
      const b = new Uint8Array([...query])
      b[5] = 2
      return b
    })(),
  },
  {
    name: 'a response (QR set)',
    bytes: (() => {
      const b = new Uint8Array([...query])
      b[2] = (b[2] as number) | 0x80
      return b
    })(),
  },
  {
    name: 'compression pointer loop',
    bytes: new Uint8Array([0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]),
  },
  { name: 'label longer than 63', bytes: labelOf64() },
]

describe('FORMERR in HTTP 200', () => {
  it.each(formerr)('$name', async ({ bytes }) => {
    for (const res of [await getWire(bytes), await postWire(bytes)]) {
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/dns-message')
      expect(res.headers.get('cache-control')).toBe('no-store')
      const m = decodeMessage(new Uint8Array(await res.arrayBuffer()))
      expect(m).toMatchObject({ id: 0x1234, qr: true, rcode: 1, answer: [] })
    }
  })
})
