/**
 * Property: whatever arrives — random bytes, mutated queries, random
 * query strings, bodies, content types and methods — the worker never answers 5xx; a wire answer
 * in HTTP 200 is a response echoing the query id.
 */
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { BASE, base64url, fetchDoh, getWire, postWire } from './helpers/doh.ts'
import { decodeMessage, encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { seedZone } from './helpers/seed.ts'

beforeAll(() =>
  seedZone(
    'prop.test',
    `
@       3600 IN SOA   ns1 hostmaster 1 7200 3600 1209600 300
www      300 IN A     192.0.2.1
alias    300 IN CNAME www
*.w      300 IN TXT   "wild"
sub      300 IN NS    ns.elsewhere.net.
`
  )
)

const RUNS = 300
/** Each property makes hundreds of requests: seconds of work, longer when other files share the cores. */
const PROPERTY_TIMEOUT_MS = 30_000

/** A valid query for a name near the seeded zone. */
const validQuery = fc
  .record({
    name: fc.constantFrom(
      'www.prop.test',
      'alias.prop.test',
      'x.w.prop.test',
      'a.sub.prop.test',
      'prop.test',
      'nope.prop.test',
      'other.invalid'
    ),
    type: fc.constantFrom(
      'A',
      'AAAA',
      'TXT',
      'ANY',
      'NS',
      'SOA',
      'CNAME',
      'MX',
      'HTTPS',
      'OPT',
      'AXFR'
    ),
    id: fc.integer({ min: 0, max: 0xffff }),
    edns: fc.option(
      fc.record({
        payload: fc.integer({ min: 0, max: 0xffff }),
        do: fc.boolean(),
        version: fc.constantFrom(0, 0, 1),
      }),
      { nil: undefined }
    ),
  })
  .map(({ name, type, id, edns }) => encodeQuery(name, type, { id, ...(edns ? { edns } : {}) }))

type Mutation =
  | { kind: 'flip'; at: number; value: number }
  | { kind: 'cut'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    value: fc.integer({ min: 0, max: 255 }),
  }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
  })
)

function mutate(bytes: Uint8Array, mutations: Mutation[]): Uint8Array {
  let b = new Uint8Array(bytes)
  for (const m of mutations) {
    const at = b.length === 0 ? 0 : m.at % (b.length + 1)
    if (m.kind === 'flip' && at < b.length) b[at] = m.value
    else if (m.kind === 'cut') b = b.slice(0, at)
    else if (m.kind === 'insert')
      b = new Uint8Array([...b.subarray(0, at), ...m.bytes, ...b.subarray(at)])
  }
  return b
}

/** Status below 500; a 200 wire answer is a DNS response with the query's id. */
async function checkWire(res: Response, sent: Uint8Array): Promise<void> {
  expect(res.status).toBeLessThan(500)
  expect([200, 400, 413]).toContain(res.status)
  const body = new Uint8Array(await res.arrayBuffer())
  if (res.status !== 200) return
  expect(res.headers.get('content-type')).toBe('application/dns-message')
  expect(sent.length).toBeGreaterThanOrEqual(12)
  const m = decodeMessage(body)
  expect(m.qr).toBe(true)
  expect(m.id).toBe(((sent[0] as number) << 8) | (sent[1] as number))
}

describe('never 5xx', { timeout: PROPERTY_TIMEOUT_MS }, () => {
  it('random bytes over GET and POST', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        await checkWire(await postWire(bytes), bytes)
        if (bytes.length > 0) await checkWire(await getWire(bytes), bytes)
      }),
      { numRuns: RUNS }
    )
  })

  it('valid queries with random mutations', async () => {
    await fc.assert(
      fc.asyncProperty(
        validQuery,
        fc.array(mutation, { minLength: 0, maxLength: 4 }),
        fc.boolean(),
        async (query, mutations, post) => {
          const bytes = mutate(query, mutations)
          if (bytes.length === 0) return
          await checkWire(post ? await postWire(bytes) : await getWire(bytes), bytes)
        }
      ),
      { numRuns: RUNS * 2 }
    )
  })

  it('random query strings and Accept headers', async () => {
    const key = fc.oneof(
      fc.constantFrom(
        'dns',
        'name',
        'type',
        'do',
        'cd',
        'ct',
        'edns_client_subnet',
        'random_padding'
      ),
      fc.string({ maxLength: 6 })
    )
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(
        '',
        '0',
        '1',
        'true',
        'false',
        'A',
        'ANY',
        '65535',
        'TYPE65536',
        'www.prop.test',
        '.',
        '..',
        'application/dns-json',
        '\\000.prop.test',
        '*.w.prop.test'
      ),
      fc.uint8Array({ maxLength: 60 }).map(base64url)
    )
    const accept = fc.constantFrom(
      undefined,
      'application/dns-json',
      'application/dns-message',
      '*/*',
      'text/html'
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(key, value), { maxLength: 5 }),
        accept,
        async (pairs, accept) => {
          const query = new URLSearchParams(pairs).toString()
          const res = await fetchDoh(`${BASE}?${query}`, accept ? { headers: { accept } } : {})
          expect(res.status).toBeLessThan(500)
          const text = await res.text()
          if (res.headers.get('content-type') === 'application/dns-json') JSON.parse(text)
        }
      ),
      { numRuns: RUNS }
    )
  })

  it('random methods, content types and bodies', async () => {
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD')
    const contentType = fc.constantFrom(
      undefined,
      'application/dns-message',
      'application/dns-json',
      'text/plain',
      'application/octet-stream',
      'application/dns-message; x=1'
    )
    await fc.assert(
      fc.asyncProperty(
        method,
        contentType,
        fc.uint8Array({ maxLength: 200 }),
        async (method, contentType, body) => {
          const withBody = method !== 'GET' && method !== 'HEAD'
          const res = await fetchDoh(BASE, {
            method,
            headers: contentType ? { 'content-type': contentType } : {},
            ...(withBody ? { body } : {}),
          })
          expect(res.status).toBeLessThan(500)
          await res.arrayBuffer()
        }
      ),
      { numRuns: RUNS }
    )
  })
})
