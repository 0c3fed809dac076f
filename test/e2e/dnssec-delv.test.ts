/**
 * DNSSEC validated by an independent validator: BIND's `delv`, with the zone's DS as its only trust
 * anchor, asks the real local stack through the classic DNS front (UDP, TCP on truncation) and
 * must report every answer fully validated: every record type the API accepts, NXDOMAIN and
 * NODATA (compact denial), wildcard answers and wildcard NODATA, CNAME chains, DS at delegations
 * and the proof of none, the apex, and answers throughout a key rollover. Then disabling: the
 * zone signs during the grace period and answers without DNSSEC records after it.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
import { DNSSEC_DISABLE_GRACE_SECONDS } from './global-setup.ts'
import { createEveryTypeZone } from './tools/every-type-zone.ts'
import { stackApi } from './tools/stack-api.ts'

const run = promisify(execFile)
const base = inject('stackBase')
const zone = `dnssec-${Date.now().toString(36)}.example`
let zoneId = ''
let front: { port: number; close(): void }
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-delv-'))

/** The stack's API (the shared e2e helper), answering the call's `result`. */
const api = async (method: string, p: string, body?: unknown): Promise<any> =>
  (await stackApi(method, p, body)).result

/** Polls until the DNSSEC change is built (status leaves `pending`). */
async function dnssecSettled(): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const r = await api('GET', `/zones/${zoneId}/dnssec`)
    if (r.status !== 'pending') return r
    await new Promise((res) => setTimeout(res, 50))
  }
  throw new Error('DNSSEC change not built in time')
}

function anchorFile(name: string, keys: { key_tag: number; digest: string }[]): string {
  const file = path.join(dir, `${name}.conf`)
  const lines = keys.map((k) => `  "${zone}." static-ds ${k.key_tag} 13 2 "${k.digest}";`)
  writeFileSync(file, `trust-anchors {\n${lines.join('\n')}\n};\n`)
  return file
}

/** delv's verdict line for one question (`fully validated`, `negative response, fully validated`, or the failure). */
async function delv(anchors: string, name: string, type: string): Promise<string> {
  const qname = name === '@' ? `${zone}.` : `${name}.${zone}.`
  const args = [
    '@127.0.0.1',
    '-p',
    String(front.port),
    '-a',
    anchors,
    `+root=${zone}.`,
    '+nocdflag',
    qname,
    type,
  ]
  const out = await run('delv', args, { timeout: 20_000 }).then(
    (r) => r.stdout + r.stderr,
    (e) => `${e.stdout ?? ''}${e.stderr ?? ''}`
  )
  const verdict = out
    .split('\n')
    .find((l) =>
      /^; (fully validated|negative response|unsigned answer|resolution failed|validation failed)/.test(
        l
      )
    )
  return verdict?.replace(/^; /, '') ?? out.trim().split('\n').slice(-3).join(' | ')
}

/** Runs the questions four at a time; returns `name type → verdict`. */
async function verdicts(
  anchors: string,
  questions: [string, string][]
): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (let i = 0; i < questions.length; i += 4) {
    const batch = questions.slice(i, i + 4)
    const results = await Promise.all(batch.map(([n, t]) => delv(anchors, n, t)))
    batch.forEach(([n, t], j) => (out[`${n} ${t}`] = results[j]!))
  }
  return out
}

const expectAll = (got: Record<string, string>, verdict: string): void => {
  expect(got).toEqual(Object.fromEntries(Object.keys(got).map((k) => [k, verdict])))
}

async function dig(name: string, type: string, flags: string[] = []): Promise<string> {
  const r = await run('dig', [
    '@127.0.0.1',
    '-p',
    String(front.port),
    '+norec',
    '+nocmd',
    '+nostats',
    ...flags,
    `${name}.${zone}.`,
    type,
  ])
  return r.stdout
}

beforeAll(async () => {
  front = await startDnsFront({ target: base })
  const made = await createEveryTypeZone(zone)
  zoneId = made.zoneId
  expect(made.imported.status).toBe(200)
  await api('POST', `/zones/${zoneId}/dns_records/batch`, {
    posts: [
      { type: 'NS', name: `nods.${zone}`, content: 'ns.example.net' },
      { type: 'CNAME', name: `chain.${zone}`, content: `alias.${zone}` },
    ],
  })
  await api('PATCH', `/zones/${zoneId}/dnssec`, { status: 'active' })
}, 60_000)

afterAll(() => {
  front?.close()
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
})

describe('DNSSEC validated by delv through the classic DNS front', () => {
  let first: any

  it('validates every record type, the apex, CNAME chains, wildcards and DS at a delegation', async () => {
    first = await dnssecSettled()
    expect(first.status).toBe('active')
    const anchors = anchorFile('first', [first])
    const got = await verdicts(anchors, [
      ['@', 'SOA'],
      ['@', 'NS'],
      ['@', 'DNSKEY'],
      ['@', 'CDS'],
      ['@', 'CDNSKEY'],
      ['@', 'A'],
      ['@', 'MX'],
      ['@', 'TXT'],
      ['@', 'CAA'],
      ['@', 'CERT'],
      ['@', 'HTTPS'],
      ['@', 'NAPTR'],
      ['@', 'SSHFP'],
      ['www', 'A'],
      ['www', 'AAAA'],
      ['alias', 'CNAME'],
      ['alias', 'A'],
      ['chain', 'A'],
      ['alias11.gen', 'A'],
      ['flat', 'CNAME'],
      ['mail', 'A'],
      ['txt', 'TXT'],
      ['bare', 'TXT'],
      ['svc', 'SVCB'],
      ['loc', 'LOC'],
      ['c0ffee._openpgpkey', 'OPENPGPKEY'],
      ['ptr', 'PTR'],
      ['beef._smimecert', 'SMIMEA'],
      ['_sip._udp', 'SRV'],
      ['_443._tcp.www', 'TLSA'],
      ['_http._tcp', 'URI'],
      ['sub', 'DS'],
      ['x.wild', 'A'],
      ['a.b.wild', 'A'],
      ['\\000.wild', 'A'],
      ['b\\000.wild', 'A'],
      ['www', 'NSEC'],
      ['nope', 'NSEC'],
      ['abs', 'A'],
      ['late', 'A'],
    ])
    expectAll(got, 'fully validated')
  })

  it('validates NXDOMAIN, NODATA, an empty non-terminal, wildcard NODATA and a delegation without DS as negative answers', async () => {
    const got = await verdicts(anchorFile('first', [first]), [
      ['nope', 'A'],
      ['deep.nope', 'TXT'],
      ['www', 'TXT'],
      ['@', 'PTR'],
      ['_tcp.www', 'A'],
      ['wild', 'A'],
      ['x.wild', 'TXT'],
      ['nods', 'DS'],
    ])
    expectAll(got, 'negative response, fully validated')
  })

  it('answers a referral with its signed DS, or with a signed NSEC proving none; NXDOMAIN as compact denial', async () => {
    const withDs = await dig('host.sub', 'A', ['+dnssec'])
    expect(withDs).toMatch(/sub\.\S+\s+\d+\s+IN\s+DS\s/)
    expect(withDs).toMatch(/sub\.\S+\s+\d+\s+IN\s+RRSIG\s+DS 13 3 /)
    const withoutDs = await dig('host.nods', 'A', ['+dnssec'])
    expect(withoutDs).toMatch(/nods\.\S+\s+\d+\s+IN\s+NSEC\s+\\000\.nods\.\S+ NS RRSIG NSEC/)
    const nx = await dig('nope', 'A', ['+dnssec'])
    expect(nx).toContain('status: NOERROR')
    expect(nx).toMatch(/nope\.\S+\s+\d+\s+IN\s+NSEC\s+\\000\.nope\.\S+ RRSIG NSEC (NXNAME|TYPE128)/)
    const wild = await dig('x.wild', 'A', ['+dnssec'])
    // Labels 3: signed over *.wild.<zone> (two labels for the zone's name), not over the query name.
    expect(wild).toMatch(/x\.wild\.\S+\s+\d+\s+IN\s+RRSIG\s+A 13 3 /)
  })

  it('keeps validating through a key rollover: new key published beside the old, then the old removed', async () => {
    const rolled = (await api('POST', `/zones/${zoneId}/dnssec/keys`)) as any
    const during = await dnssecSettled()
    expect(during.keys.map((k: any) => k.key_tag)).toEqual([first.key_tag, rolled.key_tag])
    const sample: [string, string][] = [
      ['@', 'DNSKEY'],
      ['www', 'A'],
      ['x.wild', 'A'],
      ['nope', 'A'],
    ]
    expect(Object.values(await verdicts(anchorFile('old', [first]), sample))).toEqual([
      'fully validated',
      'fully validated',
      'fully validated',
      'negative response, fully validated',
    ])
    expect(Object.values(await verdicts(anchorFile('new', [during.keys[1]]), sample))).toEqual([
      'fully validated',
      'fully validated',
      'fully validated',
      'negative response, fully validated',
    ])
    await api('DELETE', `/zones/${zoneId}/dnssec/keys/${first.key_tag}`)
    await dnssecSettled()
    expect(Object.values(await verdicts(anchorFile('new', [during.keys[1]]), sample))).toEqual([
      'fully validated',
      'fully validated',
      'fully validated',
      'negative response, fully validated',
    ])
    // The old DS no longer matches any published key: validation must fail.
    expect(await delv(anchorFile('old', [first]), 'www', 'A')).not.toMatch(/fully validated/)
  })

  it('disabling keeps signing for the grace period, then answers without RRSIG, NSEC or DNSKEY', async () => {
    const disabled = await api('PATCH', `/zones/${zoneId}/dnssec`, { status: 'disabled' })
    expect(disabled.status).toBe('pending-disabled')
    // Give the builder a moment to publish the new metadata, well inside the grace period.
    await new Promise((r) => setTimeout(r, 500))
    expect(await dig('www', 'A', ['+dnssec'])).toMatch(/IN\s+RRSIG\s+A /)
    await new Promise((r) => setTimeout(r, DNSSEC_DISABLE_GRACE_SECONDS * 1000 + 500))
    expect((await api('GET', `/zones/${zoneId}/dnssec`)).status).toBe('disabled')
    const www = await dig('www', 'A', ['+dnssec'])
    expect(www).toMatch(/IN\s+A\s+192\.0\.2\.2/)
    expect(www).not.toMatch(/RRSIG|NSEC/)
    // Only the zone's own DNSKEY record (from the imported file) is left at the apex.
    expect(await dig('nope', 'A', ['+dnssec'])).not.toMatch(/RRSIG|NSEC/)
    expect(
      await run('dig', [
        '@127.0.0.1',
        '-p',
        String(front.port),
        '+norec',
        '+dnssec',
        `${zone}.`,
        'DNSKEY',
      ]).then((r) => r.stdout)
    ).toMatch(/ANSWER: 1,/)
  })
})
