/**
 * BIND 9 `named` provisioned through our catalog zone (RFC 9432): named is the secondary of the
 * account's catalog (`catalog-zones { zone "…" default-primaries …; }`), reached through the local
 * DNS front and `/dns_transfer` with a TSIG key. A zone created through the API with outgoing
 * transfers enabled appears in the catalog, named (told by the catalog's NOTIFY) adds it and
 * transfers it, and what it holds equals our export in `named-checkzone -D` canonical form; the
 * zone deleted, named drops it. The catalog is the stack account's (a second account would make
 * every other test name its account); members other tests enabled do not matter here, and the
 * catalog is removed afterwards.
 */
import { execFile, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../scripts/lib/stack.mjs'
import { namedConf, spawnNamed } from '../../scripts/lib/named-conf.mjs'
import { enableOutgoing, makePeer } from './tools/transfer-settings.ts'
import { stackApi } from './tools/stack-api.ts'
import { canonicalZone, exportZoneFile } from './tools/zone-files.ts'

const base = inject('stackBase')
const token = inject('stackToken')
const stamp = Date.now().toString(36)
const catalog = `catalog-${stamp}.example.net`
const zone = `catz-member-${stamp}.example`
const SECRET = 'Y2F0YWxvZy1rZXktb2YtdGhlLWNhdGFsb2ctdGVzdC0zMg=='
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-catz-'))
const run = promisify(execFile)
let front: { port: number; close(): void }
let named: ChildProcess | undefined
let namedLog: () => string = () => ''
let namedPort = 0
let accountId = ''
let peer = ''

const api = async (method: string, p: string, body?: unknown): Promise<any> =>
  (await stackApi(method, p, body)).result

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return check()
}

/** What named answers for `name`/`type` (status line and answers). */
const askNamed = (...args: string[]): Promise<string> =>
  run('dig', ['-p', String(namedPort), '@127.0.0.1', '+norec', ...args]).then(
    (r) => r.stdout,
    (e) => `${e.stdout ?? ''}${e.stderr ?? ''}`
  )

function startNamed(): void {
  const options = [
    'notify no;',
    'allow-transfer { 127.0.0.1; };',
    'allow-new-zones yes;',
    `catalog-zones {
    zone "${catalog}" default-primaries port ${front.port} { 127.0.0.1 key "catz-key"; }
      min-update-interval 1;
  };`,
  ]
  const zones = `zone "${catalog}" {
  type secondary;
  file "${dir}/${catalog}.db";
  primaries port ${front.port} { 127.0.0.1 key "catz-key"; };
};`
  const conf = namedConf({ dir, port: namedPort, options, keys: { 'catz-key': SECRET }, zones })
  const started = spawnNamed(dir, conf)
  named = started.child
  namedLog = started.log
}

beforeAll(async () => {
  front = await startDnsFront({ target: base, transfer: { token } })
  namedPort = await freePort()
  // The stack's own account: a second account would make every other test name its account.
  accountId = (await api('GET', '/accounts'))[0].id
  peer = await makePeer({
    accountId,
    name: 'named',
    ip: '127.0.0.1',
    port: namedPort,
    tsig: { name: 'catz-key', secret: SECRET },
  })
  await api('PUT', `/accounts/${accountId}/secondary_dns/catalog`, { name: catalog, peers: [peer] })
  startNamed()
  const loaded = await waitFor(
    () => new RegExp(`transfer of '${catalog}/IN' from [^ ]+: Transfer completed`).test(namedLog()),
    20_000
  )
  expect(loaded, namedLog()).toBe(true)
}, 60_000)

afterAll(async () => {
  if (accountId) await api('DELETE', `/accounts/${accountId}/secondary_dns/catalog`).catch(() => {})
  named?.kill('SIGTERM')
  front?.close()
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
})

describe('BIND named provisioned through our catalog zone', () => {
  let zoneId = ''

  it('adds and transfers a zone created through the API, holding exactly our export', async () => {
    zoneId = (await api('POST', '/zones', { name: zone, account: { id: accountId } })).id
    await api('POST', `/zones/${zoneId}/dns_records`, {
      type: 'A',
      name: `www.${zone}`,
      content: '192.0.2.80',
      ttl: 300,
    })
    await enableOutgoing(zoneId, zone, [peer])
    const transferred = new RegExp(`transfer of '${zone}/IN' from [^ ]+: Transfer completed`)
    expect(await waitFor(() => transferred.test(namedLog()), 20_000), namedLog()).toBe(true)
    expect(namedLog()).toMatch(new RegExp(`catz: adding zone '${zone}' from catalog '${catalog}'`))
    // Told by the catalog's NOTIFY, not by its refresh timer (an hour).
    expect(namedLog()).toMatch(
      new RegExp(`zone ${catalog}/IN: notify from 127\\.0\\.0\\.1#\\d+: serial \\d+`)
    )

    const exported = await exportZoneFile(zoneId, path.join(dir, 'export.zone'))
    const held = path.join(dir, 'held.zone')
    writeFileSync(held, await askNamed(zone, 'AXFR'))
    expect(canonicalZone(zone, held)).toEqual(canonicalZone(zone, exported))
    expect(canonicalZone(zone, held).some((l) => l.includes('192.0.2.80'))).toBe(true)
  })

  it('drops the zone once it is deleted', async () => {
    await api('DELETE', `/zones/${zoneId}`)
    const dropped = new RegExp(`catz: deleting zone '${zone}' from catalog '${catalog}'`)
    expect(await waitFor(() => dropped.test(namedLog()), 20_000), namedLog()).toBe(true)
    expect(await askNamed(zone, 'SOA')).toMatch(/status: REFUSED/)
  })
})
