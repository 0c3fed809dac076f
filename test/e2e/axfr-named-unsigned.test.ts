/**
 * BIND 9 `named` as a secondary of one of our zones without TSIG (a peer with no key, as
 * Cloudflare's peers are by default): named checks the zone's SOA over plain DNS, which the DNS
 * front answers from the platform's DoH endpoint, so a change below the apex reaches named only
 * if the SOA the zone serves carries the change's serial. A NOTIFY after such a change must end
 * in an IXFR of it.
 */
import { execFile, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../scripts/lib/stack.mjs'
import { namedConf, spawnNamed } from '../../scripts/lib/named-conf.mjs'
import { waitFor } from './tools/processes.ts'
import { stackApi } from './tools/stack-api.ts'
import { enableOutgoing, makePeer } from './tools/transfer-settings.ts'
import { canonicalZone, exportZoneFile } from './tools/zone-files.ts'

const base = inject('stackBase')
const token = inject('stackToken')
const zone = `unsigned-${Date.now().toString(36)}.example`
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-unsigned-'))
let front: { port: number; close(): void }
let named: ChildProcess | undefined
let namedLog: () => string = () => ''
let zoneId = ''
let peerId = ''
let accountId = ''
let namedPort = 0

const run = promisify(execFile)
const api = async (method: string, p: string, body?: unknown): Promise<any> =>
  (await stackApi(method, p, body)).result

beforeAll(async () => {
  front = await startDnsFront({ target: base, transfer: { token } })
  const account = (await api('GET', '/accounts'))[0]
  accountId = account.id
  const made = await api('POST', '/zones', { name: zone, account: { id: accountId } })
  zoneId = made.id
  await api('POST', `/zones/${zoneId}/dns_records`, {
    type: 'A',
    name: `www.${zone}`,
    content: '192.0.2.1',
    ttl: 300,
  })
  namedPort = await freePort()
  peerId = await makePeer({ accountId, name: 'named-unsigned', ip: '127.0.0.1', port: namedPort })
  await enableOutgoing(zoneId, zone, [peerId])
}, 90_000)

afterAll(async () => {
  named?.kill('SIGTERM')
  front?.close()
  // The e2e tests share one account: the peer at loopback goes with the zone.
  await stackApi('DELETE', `/zones/${zoneId}`).catch(() => {})
  await stackApi('DELETE', `/accounts/${accountId}/secondary_dns/peers/${peerId}`).catch(() => {})
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
})

/** What named serves of the zone, in canonical form. */
async function held(): Promise<string[]> {
  const file = path.join(dir, 'held.zone')
  writeFileSync(
    file,
    (await run('dig', ['-p', String(namedPort), '@127.0.0.1', zone, 'AXFR'])).stdout
  )
  return canonicalZone(zone, file)
}

describe('BIND named as an unsigned secondary of our zone', () => {
  it('follows a change below the apex: NOTIFY, an SOA check over DoH, then IXFR', async () => {
    const zones = `zone "${zone}" {
  type secondary;
  file "${dir}/${zone}.db";
  masterfile-format text;
  primaries port ${front.port} { 127.0.0.1; };
};`
    const options = ['notify no;', 'allow-transfer { 127.0.0.1; };']
    const started = spawnNamed(dir, namedConf({ dir, port: namedPort, options, zones }))
    named = started.child
    namedLog = started.log
    const first = await waitFor(() => /Transfer completed/.test(namedLog()), 30_000)
    expect(first, namedLog()).toBe(true)

    const before = namedLog().length
    await api('POST', `/zones/${zoneId}/dns_records`, {
      type: 'TXT',
      name: `below.apex.${zone}`,
      content: '"a change below the apex"',
      ttl: 300,
    })
    const exported = await exportZoneFile(zoneId, path.join(dir, 'export.zone'))
    const serial = /serial (\d+)/.exec(readFileSync(exported, 'utf8'))![1]
    const transferred = () =>
      new RegExp(`transferred serial ${serial}`).test(namedLog().slice(before))
    expect(await waitFor(transferred, 30_000), namedLog().slice(before)).toBe(true)
    expect(namedLog().slice(before)).toMatch(/notify from 127\.0\.0\.1#\d+: serial \d+/)
    expect(await held()).toEqual(canonicalZone(zone, exported))
  })
})
