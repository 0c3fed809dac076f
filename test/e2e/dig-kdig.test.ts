/**
 * `dig +http-plain` (bind9-dnsutils) and `kdig +https` (knot-dnsutils) query the real local stack
 * (`wrangler dev`: API + DoH) for records created through the API; `dig` and `kdig` over plain UDP
 * and TCP query it through the DNS front (scripts/lib/dns-front.mjs), as resolvers do on port 53.
 *
 * dig and kdig speak DoH over HTTP/2 only (nghttp2: h2c with prior knowledge for +http-plain,
 * ALPN h2 for +https), while the workerd server behind `wrangler dev` speaks HTTP/1.1 only (it
 * offers no ALPN). In production Cloudflare's edge terminates HTTP/2 in front of the worker; here
 * a minimal node:http2 front plays that part and forwards every stream unchanged: h2c → the
 * shared http stack (global setup), h2 over TLS → a second stack started with
 * `--local-protocol https` and a throwaway certificate that kdig and the front both verify.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { applyMigrations, freePort, startStack } from '../../scripts/lib/stack.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { forward, startH2Front } from '../../scripts/lib/h2-front.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev` and `pnpm dns-front`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'

const run = promisify(execFile)
const ACCOUNT = 'a0000000000000000000000000000001'
const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

interface Reply {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

/** One HTTP/1.1 request (http or https; `ca` verifies a self-signed certificate). */
const request: (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; body?: Buffer | string; ca?: Buffer }
) => Promise<Reply> = forward

/** The API through the Cloudflare v4 envelope. */
async function api(
  stack: Stack,
  method: string,
  route: string,
  body?: unknown
): Promise<{ status: number; json: any }> {
  const res = await request(`${stack.base}/client/v4${route}`, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(stack.ca ? { ca: stack.ca } : {}),
  })
  return { status: res.status, json: JSON.parse(res.body.toString('utf8') || 'null') }
}

interface Stack {
  base: string
  token: string
  ca?: Buffer
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Creates a zone with records; returns its id once the DoH endpoint answers the last record. */
async function createZone(stack: Stack, zone: string, records: object[]): Promise<string> {
  const created = await api(stack, 'POST', '/zones', { name: zone, account: { id: ACCOUNT } })
  expect(created.status, JSON.stringify(created.json)).toBe(200)
  const id: string = created.json.result.id
  for (const record of records) {
    const res = await api(stack, 'POST', `/zones/${id}/dns_records`, record)
    expect(res.status, JSON.stringify(res.json)).toBe(200)
  }
  await propagated(stack, id, records.at(-1) as { name: string; type: string; content: string })
  return id
}

/**
 * Waits (deadline 60 s) until the ZoneBuilder has built every committed change (`GET
 * /zones/:id/propagation`, when the endpoint exists), then until DoH answers `last` (the DoH
 * isolate caches zone metadata for a few seconds).
 */
async function propagated(
  stack: Stack,
  id: string,
  last: { name: string; type: string; content: string }
): Promise<void> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const p = await api(stack, 'GET', `/zones/${id}/propagation`)
    if (p.status === 404) break
    const r = p.json?.result
    if (p.status === 200 && r && r.built_seq >= r.committed_seq) break
    if (Date.now() > deadline) throw new Error(`zone ${id} not built: ${JSON.stringify(p.json)}`)
    await sleep(200)
  }
  const url = `${stack.base}/dns-query?name=${encodeURIComponent(last.name)}&type=${last.type}`
  let seen = ''
  for (;;) {
    const res = await request(url, {
      headers: { accept: 'application/dns-json' },
      ...(stack.ca ? { ca: stack.ca } : {}),
    })
    seen = res.body.toString('utf8')
    if (
      res.status === 200 &&
      JSON.parse(seen).Answer?.some((a: { data: string }) => a.data.includes(last.content))
    )
      return
    if (Date.now() > deadline)
      throw new Error(`DoH never answered ${last.name} ${last.type}: ${seen}`)
    await sleep(250)
  }
}

/** The HTTP/2 front `pnpm dev` also runs: h2c (or h2 over TLS) in, HTTP/1.1 to `target`. */
async function h2Front(
  target: string,
  tls?: { key: Buffer; cert: Buffer }
): Promise<{ port: number; close: () => void }> {
  return startH2Front({ target, ...(tls ? { tls } : {}) })
}

async function tool(cmd: 'dig' | 'kdig', args: string[]): Promise<string> {
  const { stdout } = await run(cmd, args, { timeout: 20_000 })
  return stdout
}

const line = (owner: string, ttl: number, type: string, data: string) =>
  new RegExp(
    `^${owner.replace(/[.*]/g, '\\$&')}\\.\\s+${ttl}\\s+IN\\s+${type}\\s+${data.replace(/[.*"]/g, '\\$&')}$`,
    'm'
  )

describe('dig +http-plain against the local stack', () => {
  const zone = `dig-${suffix}.example`
  const stack: Stack = { base: inject('stackBase'), token: inject('stackToken') }
  let front: { port: number; close: () => void }
  const dig = (...args: string[]) => tool('dig', ['@127.0.0.1', '-p', String(front.port), ...args])

  beforeAll(async () => {
    await createZone(stack, zone, [
      { type: 'TXT', name: `txt.${zone}`, content: '"hello from dig"', ttl: 120 },
      { type: 'CNAME', name: `alias.${zone}`, content: `www.${zone}`, ttl: 600 },
      { type: 'A', name: `www.${zone}`, content: '192.0.2.10', ttl: 300 },
    ])
    front = await h2Front(stack.base)
  }, 120_000)
  afterAll(() => front?.close())

  it('POST: an authoritative A answer', async () => {
    const out = await dig(`+http-plain=/dns-query`, `www.${zone}`, 'A')
    expect(out).toContain('status: NOERROR')
    expect(out).toMatch(/flags: qr aa rd;/)
    expect(out).toMatch(line(`www.${zone}`, 300, 'A', '192.0.2.10'))
    expect(out).toMatch(/SERVER: 127\.0\.0\.1#\d+\(127\.0\.0\.1\) \(HTTP\)/)
  })

  it('GET: the same answer, question case preserved', async () => {
    const name = `WwW.${zone.toUpperCase()}`
    const out = await dig(`+http-plain-get=/dns-query`, name, 'A')
    expect(out).toContain('status: NOERROR')
    expect(out).toMatch(new RegExp(`^;${name.replace(/\./g, '\\.')}\\.\\s+IN\\s+A$`, 'm'))
    expect(out).toMatch(line(name, 300, 'A', '192.0.2.10'))
  })

  it('a CNAME chain and a TXT record', async () => {
    const cname = await dig(`+http-plain=/dns-query`, `alias.${zone}`, 'A')
    expect(cname).toMatch(line(`alias.${zone}`, 600, 'CNAME', `www.${zone}.`))
    expect(cname).toMatch(line(`www.${zone}`, 300, 'A', '192.0.2.10'))
    const txt = await dig(`+http-plain=/dns-query`, `txt.${zone}`, 'TXT')
    expect(txt).toMatch(line(`txt.${zone}`, 120, 'TXT', '"hello from dig"'))
  })

  it('NXDOMAIN with the SOA in authority', async () => {
    const out = await dig(`+http-plain=/dns-query`, `missing.${zone}`, 'A')
    expect(out).toContain('status: NXDOMAIN')
    expect(out).toMatch(
      new RegExp(`^${zone.replace(/\./g, '\\.')}\\.\\s+\\d+\\s+IN\\s+SOA\\s`, 'm')
    )
  })

  it('REFUSED outside hosted zones', async () => {
    const out = await dig(`+http-plain=/dns-query`, `www.not-hosted-${suffix}.invalid`, 'A')
    expect(out).toContain('status: REFUSED')
  })
})

describe('kdig +https against a stack served over HTTPS', () => {
  const zone = `kdig-${suffix}.example`
  const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-e2e-tls-'))
  const keyPath = path.join(dir, 'key.pem')
  const certPath = path.join(dir, 'cert.pem')
  let stack: Stack
  let stop: (() => void) | undefined
  let front: { port: number; close: () => void } | undefined
  const kdig = (...args: string[]) =>
    tool('kdig', [
      '@127.0.0.1',
      '-p',
      String(front?.port),
      `+tls-ca=${certPath}`,
      '+tls-hostname=localhost',
      ...args,
    ])

  beforeAll(async () => {
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ])
    const cert = readFileSync(certPath)
    const key = readFileSync(keyPath)
    const state = path.join(dir, 'state')
    applyMigrations(state)
    const token = 'e2e-tls-token'
    const started = await startStack({
      port: await freePort(),
      persistTo: state,
      token,
      protocol: 'https',
      quiet: true,
      extraArgs: ['--https-key-path', keyPath, '--https-cert-path', certPath],
    })
    stop = started.stop
    stack = { base: started.base, token, ca: cert }
    await createZone(stack, zone, [
      { type: 'AAAA', name: `v6.${zone}`, content: '2001:db8::20', ttl: 900 },
      { type: 'A', name: `www.${zone}`, content: '192.0.2.20', ttl: 300 },
    ])
    front = await h2Front(stack.base, { key, cert })
  }, 180_000)

  afterAll(() => {
    front?.close()
    stop?.()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
  })

  it('the stack itself serves DoH over HTTPS (wire POST, certificate verified)', async () => {
    // www.<zone> A, id 0, RD
    const labels = `www.${zone}`.split('.').flatMap((l) => [l.length, ...Buffer.from(l)])
    const query = Buffer.from([0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, ...labels, 0, 0, 1, 0, 1])
    const res = await request(`${stack.base}/dns-query`, {
      method: 'POST',
      headers: { 'content-type': 'application/dns-message' },
      body: query,
      ca: stack.ca,
    })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/dns-message')
    expect(res.headers['cache-control']).toBe('max-age=300')
    expect(res.body.subarray(-4)).toEqual(Buffer.from([192, 0, 2, 20]))
  })

  it('kdig +https (POST) gets the A record', async () => {
    const out = await kdig('+https=/dns-query', `www.${zone}`, 'A')
    expect(out).toMatch(/\(HTTP\/2-POST\)-\(localhost\/dns-query\)-\(status: 200\)/)
    expect(out).toContain('status: NOERROR')
    expect(out).toMatch(/Flags: qr aa rd;/)
    expect(out).toMatch(line(`www.${zone}`, 300, 'A', '192.0.2.20'))
  })

  it('kdig +https-get gets the AAAA record', async () => {
    const out = await kdig('+https-get=/dns-query', `v6.${zone}`, 'AAAA')
    expect(out).toMatch(/\(HTTP\/2-GET\)/)
    expect(out).toMatch(line(`v6.${zone}`, 900, 'AAAA', '2001:db8::20'))
  })

  it('kdig +https: NODATA with the SOA', async () => {
    const out = await kdig('+https=/dns-query', `www.${zone}`, 'MX')
    expect(out).toContain('status: NOERROR')
    expect(out).toMatch(/ANSWER: 0;/)
    expect(out).toMatch(
      new RegExp(`^${zone.replace(/\./g, '\\.')}\\.\\s+\\d+\\s+IN\\s+SOA\\s`, 'm')
    )
  })
})

describe('dig and kdig over UDP and TCP through the DNS front', () => {
  const zone = `front-${suffix}.example`
  const stack: Stack = { base: inject('stackBase'), token: inject('stackToken') }
  let front: { port: number; cache: { entries: number }; close: () => void }
  const ask = (cmd: 'dig' | 'kdig', ...args: string[]) =>
    tool(cmd, [
      '@127.0.0.1',
      '-p',
      String(front.port),
      cmd === 'dig' ? '+tries=1' : '+retry=0',
      ...args,
    ])
  const chunk = (i: number) => `"${String(i).repeat(250)}"`

  beforeAll(async () => {
    await createZone(stack, zone, [
      ...[1, 2, 3, 4, 5, 6].map((i) => ({ type: 'TXT', name: `big.${zone}`, content: chunk(i) })),
      { type: 'A', name: `www.${zone}`, content: '192.0.2.30', ttl: 300 },
    ])
    // As deployed: its cache on (five seconds at most), RRL on.
    front = await startDnsFront({ target: stack.base, cache: { maxTtl: 5 }, rrl: {} })
  }, 120_000)
  afterAll(() => front?.close())

  it.each([
    ['dig', '+notcp'],
    ['dig', '+tcp'],
    ['kdig', '+notcp'],
    ['kdig', '+tcp'],
  ] as const)('%s %s: an authoritative A answer', async (cmd, transport) => {
    const out = await ask(cmd, transport, `www.${zone}`, 'A')
    expect(out).toMatch(/status: NOERROR/)
    expect(out).toMatch(cmd === 'dig' ? /flags: qr aa rd;/ : /Flags: qr aa rd;/)
    expect(out).toMatch(line(`www.${zone}`, 300, 'A', '192.0.2.30'))
  })

  it('keeps the answer in its own cache', async () => {
    await ask('dig', '+notcp', `www.${zone}`, 'A')
    expect(front.cache.entries).toBeGreaterThan(0)
  })

  it('truncates an answer too large for UDP; dig retries over TCP, kdig gets it whole over TCP', async () => {
    const truncated = await ask('dig', '+notcp', '+ignore', '+bufsize=1232', `big.${zone}`, 'TXT')
    expect(truncated).toMatch(/flags: qr aa tc rd;/)
    expect(truncated).toMatch(/ANSWER: 0,/)
    const retried = await ask('dig', '+notcp', `big.${zone}`, 'TXT')
    expect(retried).toMatch(/ANSWER: 6,/)
    expect(retried).toContain('1'.repeat(250))
    const kdigUdp = await ask('kdig', '+notcp', `big.${zone}`, 'TXT')
    expect(kdigUdp).toMatch(/Flags: qr aa tc rd;.*ANSWER: 0;/)
    const kdigTcp = await ask('kdig', '+tcp', `big.${zone}`, 'TXT')
    expect(kdigTcp).toMatch(/ANSWER: 6;/)
    expect(kdigTcp).toContain('6'.repeat(250))
  })
})
