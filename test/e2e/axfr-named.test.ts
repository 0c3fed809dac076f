/**
 * BIND 9 `named` as a secondary of one of our zones: the zone's outgoing transfer settings (a peer
 * at named's address and port with a TSIG key) are rows in D1, the local DNS front relays named's
 * SOA checks and transfers to the API (`/dns_transfer`), and the zone named holds equals our
 * export in `named-checkzone -D` canonical form, after the first AXFR and after a change the
 * builder announced by NOTIFY. named runs from a generated named.conf on a free port under a
 * temporary directory. The settings rows are written by SQL (test-only helper) until the
 * secondary_dns routes write them.
 */
import { execFile, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import Cloudflare from 'cloudflare'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../scripts/lib/stack.mjs'
import { namedConf, spawnNamed } from '../../scripts/lib/named-conf.mjs'
import { EVERY_TYPE_RECORDS } from '../api/import-export-fixture.ts'
import { createEveryTypeZone } from './tools/every-type-zone.ts'
import { enableOutgoing, makePeer } from './tools/transfer-settings.ts'
import { stackApi } from './tools/stack-api.ts'
import { canonicalZone, exportZoneFile } from './tools/zone-files.ts'

const base = inject('stackBase')
const token = inject('stackToken')
const zone = `axfr-${Date.now().toString(36)}.example`
const SECRET = 'c2VjcmV0LWZvci10aGUtYXhmci10ZXN0LTMyLW9jdGV0cw=='
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-axfr-'))
let front: { port: number; close(): void }
let named: ChildProcess | undefined
let namedLog: () => string = () => ''
let zoneId = ''
let accountId = ''
let namedPort = 0

const run = promisify(execFile)

/** dig's output for a query to the front (failures included). */
const dig = (...args: string[]): Promise<string> =>
  run('dig', ['-p', String(front.port), '@127.0.0.1', ...args]).then(
    (r) => r.stdout + r.stderr,
    (e) => `${e.stdout ?? ''}${e.stderr ?? ''}`
  )

const api = async (method: string, p: string, body?: unknown): Promise<any> =>
  (await stackApi(method, p, body)).result

const canonical = (file: string): string[] => canonicalZone(zone, file)

/** Two sets of mixed TTLs: [type, name, content, TTL]. */
const MIXED_TTLS: [string, string, string, number][] = [
  ['TXT', `mixed.${zone}`, '"first"', 3600],
  ['TXT', `mixed.${zone}`, '"another"', 600],
  ['A', `auto.${zone}`, '192.0.2.31', 3600],
  ['A', `auto.${zone}`, '192.0.2.32', 1],
]
/** The record of TTL 600 in `mixed`, patched below. */
let mixedLow = ''

beforeAll(async () => {
  front = await startDnsFront({ target: base, transfer: { token } })
  const made = await createEveryTypeZone(zone)
  accountId = made.accountId
  zoneId = made.zoneId
  expect(made.imported.recsAdded).toBe(EVERY_TYPE_RECORDS)
  // RRsets whose records have different TTLs (the API allows it, as Cloudflare does): served,
  // exported and transferred with the set's smallest TTL (automatic, 1, as 300).
  for (const [type, name, content, ttl] of MIXED_TTLS) {
    const rec = await api('POST', `/zones/${zoneId}/dns_records`, { type, name, content, ttl })
    if (ttl === 600) mixedLow = rec.id
  }
  namedPort = await freePort()
  await configureOutgoing(namedPort)
}, 90_000)

/** A TSIG key, a peer at named's address and port with it, and the zone's outgoing transfers, enabled. */
async function configureOutgoing(port: number): Promise<void> {
  const peer = await makePeer({
    accountId,
    name: 'named',
    ip: '127.0.0.1',
    port,
    tsig: { name: 'xfr-key', secret: SECRET },
  })
  await enableOutgoing(zoneId, zone, [peer])
}

/** Our export of the zone, written to a file. */
const exportFile = (): Promise<string> => exportZoneFile(zoneId, path.join(dir, 'export.zone'))

afterAll(() => {
  named?.kill('SIGTERM')
  front?.close()
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
})

function startNamed(port: number, key: string): void {
  const zones = `zone "${zone}" {
  type secondary;
  file "${dir}/${zone}.db";
  masterfile-format text;
  primaries port ${front.port} { 127.0.0.1 key "xfr-key"; };
};`
  const options = ['notify no;', 'allow-transfer { 127.0.0.1; };']
  const started = spawnNamed(
    dir,
    namedConf({ dir, port, options, keys: { 'xfr-key': key }, zones })
  )
  named = started.child
  namedLog = started.log
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return check()
}

describe('BIND named as a secondary of our zone', () => {
  it('transfers the zone over AXFR with TSIG, and holds exactly our export', async () => {
    startNamed(namedPort, SECRET)
    const file = path.join(dir, `${zone}.db`)
    const done = await waitFor(
      () => /transfer of '[^']+' from [^ ]+: Transfer completed/.test(namedLog()),
      30_000
    )
    expect(done, namedLog()).toBe(true)
    expect(await waitFor(() => existsSync(file), 10_000), namedLog()).toBe(true)

    const exported = await exportFile()
    expect(namedLog()).toMatch(/Transfer status: success/)
    expect(canonical(exported).length).toBeGreaterThan(EVERY_TYPE_RECORDS)
    expect(canonical(file)).toEqual(canonical(exported))
    expect(readFileSync(file, 'utf8')).toContain('SOA')
    const mixed = canonical(file).filter((l) => /^(mixed|auto)\./.test(l))
    expect(mixed.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      `auto.${zone}. 300`,
      `auto.${zone}. 300`,
      `mixed.${zone}. 600`,
      `mixed.${zone}. 600`,
    ])
  })

  it('gets NOTIFY after a change, transfers it by IXFR and holds our export again', async () => {
    const before = namedLog().length
    await api('POST', `/zones/${zoneId}/dns_records`, {
      type: 'TXT',
      name: `notified.${zone}`,
      content: '"after the first transfer"',
      ttl: 300,
    })
    const serial = Number(/serial (\d+)/.exec(readFileSync(await exportFile(), 'utf8'))![1])
    const transferred = new RegExp(`transferred serial ${serial}`)
    const done = await waitFor(() => transferred.test(namedLog().slice(before)), 30_000)
    expect(done, namedLog().slice(before)).toBe(true)
    expect(namedLog().slice(before)).toMatch(/notify from 127\.0\.0\.1#\d+: serial \d+/)
    // An IXFR: only the difference travelled (SOA, old SOA, SOA, the new TXT, SOA).
    const completed = /Transfer completed: \d+ messages, (\d+) records/.exec(
      namedLog().slice(before)
    )
    expect(Number(completed?.[1])).toBe(5)
    // named keeps an IXFR in its journal, not its zone file: compare what it serves.
    const held = path.join(dir, 'held.zone')
    const served = await run('dig', ['-p', String(namedPort), '@127.0.0.1', zone, 'AXFR'])
    writeFileSync(held, served.stdout)
    expect(canonical(held)).toEqual(canonical(await exportFile()))
    expect(canonical(held).some((l) => l.includes('after the first transfer'))).toBe(true)
  })

  it('moves a set to its new TTL by IXFR when a TTL patch moves it, and holds our export again', async () => {
    const before = namedLog().length
    await api('PATCH', `/zones/${zoneId}/dns_records/${mixedLow}`, { ttl: 7200 })
    const serial = Number(/serial (\d+)/.exec(readFileSync(await exportFile(), 'utf8'))![1])
    const transferred = new RegExp(`transferred serial ${serial}`)
    const done = await waitFor(() => transferred.test(namedLog().slice(before)), 30_000)
    expect(done, namedLog().slice(before)).toBe(true)
    // An IXFR: SOA, old SOA, the set at 600, SOA, the set at 3600, SOA.
    const completed = /Transfer completed: \d+ messages, (\d+) records/.exec(
      namedLog().slice(before)
    )
    expect(Number(completed?.[1])).toBe(8)
    const held = path.join(dir, 'held.zone')
    const served = await run('dig', ['-p', String(namedPort), '@127.0.0.1', zone, 'AXFR'])
    writeFileSync(held, served.stdout)
    expect(canonical(held)).toEqual(canonical(await exportFile()))
    const mixed = canonical(held).filter((l) => l.startsWith(`mixed.${zone}.`))
    expect(mixed.map((l) => l.split(/\s+/)[1])).toEqual(['3600', '3600'])
  })

  it('sends NOTIFY again on force_notify through the official SDK', async () => {
    const cf = new Cloudflare({ apiToken: token, baseURL: `${base}/client/v4`, maxRetries: 0 })
    const before = namedLog().length
    expect(await cf.dns.zoneTransfers.outgoing.forceNotify({ zone_id: zoneId })).toBe('OK')
    const notified = await waitFor(
      () => /notify from 127\.0\.0\.1#\d+/.test(namedLog().slice(before)),
      15_000
    )
    expect(notified, namedLog().slice(before)).toBe(true)
  })

  it('refuses a secondary whose TSIG secret is wrong', async () => {
    named?.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 500))
    rmSync(path.join(dir, `${zone}.db`), { force: true })
    startNamed(namedPort, 'YW5vdGhlci1zZWNyZXQtb2YtdGhpcnR5LXR3by1vY3RldHM=')
    const failed = await waitFor(() => /refresh: failure trying primary/.test(namedLog()), 30_000)
    expect(failed, namedLog()).toBe(true)
    const failure = namedLog()
      .split('\n')
      .find((l) => l.includes('refresh: failure'))
    expect(failure).toMatch(/tsig|BADSIG|NOTAUTH/i)
    expect(existsSync(path.join(dir, `${zone}.db`))).toBe(false)
  })

  it('answers an IXFR from an unknown serial in the AXFR form, and refuses an unsigned AXFR', async () => {
    const key = `hmac-sha256:xfr-key:${SECRET}`
    const axfr = await dig('-y', key, zone, 'AXFR')
    const ixfr = await dig('-y', key, zone, 'IXFR=1')
    const size = /XFR size: (\d+) records/
    expect(axfr).toMatch(size)
    expect(ixfr.match(size)?.[1]).toBe(axfr.match(size)?.[1])
    expect(await dig(zone, 'AXFR')).toMatch(/Transfer failed/)
  })

  it('answers an IXFR over UDP with the single current SOA, signed, as a BIND primary does', async () => {
    const ixfr = await dig('-y', `hmac-sha256:xfr-key:${SECRET}`, zone, 'IXFR=1', '+notcp')
    expect(ixfr).toMatch(/\(UDP\)/)
    expect(ixfr).not.toMatch(/verify|failed|NOTIMP/i)
    const answer = ixfr.split('\n').filter((l) => /\sIN\s/.test(l) && !l.startsWith(';'))
    expect(answer).toHaveLength(1)
    expect(answer[0]).toMatch(/\sSOA\s/)
  })

  it('refuses a signed AXFR from an address that is neither in an ACL nor a peer', async () => {
    const key = `hmac-sha256:xfr-key:${SECRET}`
    const outside = await dig('-b', '127.0.0.2', '-y', key, zone, 'AXFR')
    expect(outside).toMatch(/Transfer failed/)
    expect(outside).not.toMatch(/XFR size/)
  })
})
