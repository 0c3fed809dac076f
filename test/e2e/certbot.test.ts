/**
 * DNS-01 certificates through the local stack, as a user gets them: certbot with
 * certbot-dns-cloudflare (pointed at our API by the Cloudflare SDK's base-URL setting, with an API
 * token) writes the `_acme-challenge` TXT records; Pebble, an ACME test CA, validates them by asking
 * the classic DNS front that `pnpm dev` runs (over TCP, as Pebble asks) and issues the certificate;
 * certbot then removes its records. One name, then a wildcard with its apex, whose two TXT records
 * share one name and must be served together. certbot comes from PyPI into a cached virtual
 * environment and Pebble from the Go module proxy into a cached binary; without python3 (with
 * venv), Go or openssl the test is skipped, saying so.
 */
import { execFile } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
import { ensurePebble, missingPebbleTools, startPebble, type Pebble } from './tools/pebble.ts'
import { ensureVenv, missingPython } from './tools/python-venv.ts'
import { stackApi } from './tools/stack-api.ts'

const run = promisify(execFile)
const PACKAGES = ['certbot==5.8.0', 'certbot-dns-cloudflare==5.8.0', 'acme==5.8.0']

const base = inject('stackBase')
const token = inject('stackToken')

/** Creates the zone the certificates are for, in the stack's first account; returns its id. */
async function createTestZone(name: string): Promise<string> {
  const accounts = await stackApi('GET', '/accounts')
  const created = await stackApi('POST', '/zones', { name, account: { id: accounts.result[0].id } })
  return created.result.id
}

/** Every record of the zone at an `_acme-challenge` name (the zones here hold a handful of records). */
async function challengeRecords(zoneId: string): Promise<unknown[]> {
  const listed = await stackApi('GET', `/zones/${zoneId}/dns_records?per_page=100`)
  expect(listed.result_info.total_count).toBeLessThan(100)
  return (listed.result as { name: string }[]).filter((r) => r.name.startsWith('_acme-challenge.'))
}

const skipReason = missingPython() ?? missingPebbleTools()
const stamp = Date.now().toString(36)
let work = ''
let certbotBin = ''
let front: { port: number; close(): void } | null = null
let pebble: Pebble | null = null

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'edgedns-certbot-'))
  if (skipReason !== null) return
  const [bin, pebbleBinary] = await Promise.all([ensureVenv('certbot', PACKAGES), ensurePebble()])
  certbotBin = path.join(bin, 'certbot')
  front = await startDnsFront({ target: base })
  pebble = await startPebble({
    binary: pebbleBinary,
    dnsServer: `127.0.0.1:${front!.port}`,
    dir: work,
  })
  const credentials = path.join(work, 'cloudflare.ini')
  writeFileSync(credentials, `dns_cloudflare_api_token = ${token}\n`)
  chmodSync(credentials, 0o600)
}, 600_000)

afterAll(async () => {
  await pebble?.stop()
  front?.close()
  if (work !== '') rmSync(work, { recursive: true, force: true })
})

/**
 * Runs `certbot certonly` for `names` under `certName` and resolves to the issued certificate, or
 * fails with certbot's output, its log and Pebble's.
 */
async function obtain(certName: string, names: string[]): Promise<X509Certificate> {
  const dir = (d: string) => path.join(work, d)
  const args = [
    'certonly',
    '--non-interactive',
    '--agree-tos',
    '--register-unsafely-without-email',
    '--server',
    pebble!.directory,
    '--config-dir',
    dir('config'),
    '--work-dir',
    dir('work'),
    '--logs-dir',
    dir('logs'),
    '--authenticator',
    'dns-cloudflare',
    '--dns-cloudflare-credentials',
    dir('cloudflare.ini'),
    '--dns-cloudflare-propagation-seconds',
    '1',
    '--cert-name',
    certName,
    ...names.flatMap((n) => ['-d', n]),
  ]
  // Only our settings reach the Cloudflare SDK: none inherited from the environment.
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const k of Object.keys(env)) if (k.startsWith('CLOUDFLARE_')) delete env[k]
  env.CLOUDFLARE_BASE_URL = `${base}/client/v4`
  env.REQUESTS_CA_BUNDLE = pebble!.caBundle
  const result = await run(certbotBin, args, { env, timeout: 60_000 }).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (e) => ({ code: e.code ?? e.signal ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` })
  )
  if (result.code !== 0) {
    const log = (() => {
      try {
        return readFileSync(path.join(dir('logs'), 'letsencrypt.log'), 'utf8')
      } catch {
        return '(no certbot log)'
      }
    })()
    throw new Error(
      `certbot exited ${result.code}\n${result.output}\n--- certbot log (tail) ---\n` +
        `${log.split('\n').slice(-40).join('\n')}\n--- Pebble ---\n${pebble!.log()}`
    )
  }
  return new X509Certificate(readFileSync(path.join(dir('config'), 'live', certName, 'cert.pem')))
}

/** The DNS names a certificate is for. */
const sans = (cert: X509Certificate): string[] =>
  (cert.subjectAltName ?? '')
    .split(', ')
    .map((s) => s.replace(/^DNS:/, ''))
    .sort()

describe('certbot with certbot-dns-cloudflare and Pebble through the local stack', () => {
  it('obtains a certificate for one name and removes its challenge record', async (ctx) => {
    if (skipReason !== null) ctx.skip(`certbot DNS-01 test skipped: ${skipReason}`)
    const zone = `certbot-one-${stamp}.example`
    const zoneId = await createTestZone(zone)
    const cert = await obtain('one-name', [`www.${zone}`])
    expect(sans(cert)).toEqual([`www.${zone}`])
    expect(cert.issuer).toMatch(/Pebble/)
    expect(await challengeRecords(zoneId)).toEqual([])
  })

  it('obtains one certificate for a wildcard and its apex, serving both TXT records at one name at once', async (ctx) => {
    if (skipReason !== null) ctx.skip(`certbot DNS-01 test skipped: ${skipReason}`)
    const zone = `certbot-wild-${stamp}.example`
    const zoneId = await createTestZone(zone)
    const cert = await obtain('wildcard', [zone, `*.${zone}`])
    expect(sans(cert)).toEqual([`*.${zone}`, zone].sort())
    expect(await challengeRecords(zoneId)).toEqual([])
    // Both records at _acme-challenge.<zone> were created before either was deleted.
    const audit = (await stackApi('GET', `/zones/${zoneId}/dns_records/audit?per_page=100`))
      .result as any[]
    const atApex = audit
      .filter((e) => (e.before ?? e.after)?.name === `_acme-challenge.${zone}`)
      .sort((a, b) => a.seq - b.seq)
      .map((e) => `${e.action} ${(e.before ?? e.after).type}`)
    expect(atApex).toEqual(['create TXT', 'create TXT', 'delete TXT', 'delete TXT'])
  })
})
