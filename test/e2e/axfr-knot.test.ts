/**
 * Knot DNS (`knotd`) as a secondary of one of our zones, beside the BIND test: a peer at knotd's
 * address and port with a TSIG key (rows written by SQL until the secondary_dns routes write
 * them), the first transfer through the local DNS front and the API's relay, then a change the
 * builder announces by NOTIFY; each time what knotd serves equals our export in
 * `named-checkzone -D` canonical form. Skipped, saying so, without knotd.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../scripts/lib/stack.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
import { EVERY_TYPE_RECORDS } from '../api/import-export-fixture.ts'
import { createEveryTypeZone } from './tools/every-type-zone.ts'
import { enableOutgoing, makePeer } from './tools/transfer-settings.ts'
import { stackApi } from './tools/stack-api.ts'
import { canonicalZone, exportZoneFile } from './tools/zone-files.ts'

const KNOTD = ['/usr/sbin/knotd', '/usr/bin/knotd'].find(existsSync)
const base = inject('stackBase')
const token = inject('stackToken')
const zone = `knot-${Date.now().toString(36)}.example`
const SECRET = 'a25vdC1zZWNyZXQtZm9yLXRoZS1heGZyLXRlc3QtMzI='
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-knot-'))
const run = promisify(execFile)
let front: { port: number; close(): void }
let knot: ChildProcess | undefined
let knotLog = ''
let knotPort = 0
let zoneId = ''

const api = async (method: string, p: string, body?: unknown): Promise<any> =>
  (await stackApi(method, p, body)).result

const canonical = (file: string): string[] => canonicalZone(zone, file)

async function exported(): Promise<string[]> {
  return canonical(await exportZoneFile(zoneId, path.join(dir, 'export.zone')))
}

/** What knotd serves, by AXFR from it, canonical; [] while it has nothing. */
async function served(): Promise<string[]> {
  const out = await run('dig', ['-p', String(knotPort), '@127.0.0.1', zone, 'AXFR']).then(
    (r) => r.stdout,
    () => ''
  )
  if (!/XFR size/.test(out)) return []
  const file = path.join(dir, 'served.zone')
  writeFileSync(file, out)
  return canonical(file)
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 200))
  }
  return check()
}

describe.skipIf(!KNOTD)('Knot DNS as a secondary of our zone', () => {
  beforeAll(async () => {
    front = await startDnsFront({ target: base, transfer: { token } })
    const made = await createEveryTypeZone(zone)
    zoneId = made.zoneId
    expect(made.imported.recsAdded).toBe(EVERY_TYPE_RECORDS)
    knotPort = await freePort()
    const peer = await makePeer({
      accountId: made.accountId,
      name: 'knotd',
      ip: '127.0.0.1',
      port: knotPort,
      tsig: { name: 'knot-key', secret: SECRET },
    })
    await enableOutgoing(zoneId, zone, [peer])
    const conf = path.join(dir, 'knot.conf')
    writeFileSync(
      conf,
      `server:
  listen: 127.0.0.1@${knotPort}
  rundir: "${dir}"
log:
  - target: stderr
    any: info
database:
  storage: "${dir}/db"
key:
  - id: knot-key
    algorithm: hmac-sha256
    secret: ${SECRET}
remote:
  - id: primary
    address: 127.0.0.1@${front.port}
    key: knot-key
acl:
  - id: from-primary
    address: 127.0.0.1
    key: knot-key
    action: notify
  - id: local
    address: 127.0.0.1
    action: transfer
zone:
  - domain: ${zone}
    storage: "${dir}"
    master: primary
    acl: [from-primary, local]
`
    )
    knot = spawn(KNOTD!, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] })
    knot.stderr?.on('data', (c) => (knotLog += String(c)))
    knot.stdout?.on('data', (c) => (knotLog += String(c)))
  }, 90_000)

  afterAll(() => {
    knot?.kill('SIGTERM')
    front?.close()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
  })

  it('transfers the zone and serves exactly our export', async () => {
    const ours = await exported()
    expect(await until(async () => (await served()).length > 0, 30_000), knotLog).toBe(true)
    expect(await served()).toEqual(ours)
  })

  it('follows a change announced by NOTIFY and serves our export again', async () => {
    await api('POST', `/zones/${zoneId}/dns_records`, {
      type: 'TXT',
      name: `knot-notified.${zone}`,
      content: '"after the first transfer"',
      ttl: 300,
    })
    const ours = await exported()
    const same = await until(async () => {
      const held = await served()
      return held.length === ours.length && held.every((l, i) => l === ours[i])
    }, 30_000)
    expect(same, knotLog).toBe(true)
    expect(knotLog).toMatch(/NOTIFY/i)
  })
})
