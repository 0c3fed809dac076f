/**
 * Knot DNS (`knotd`) as the primary of one of our secondary zones, beside the BIND test: knotd
 * serves the zone of every record type the API accepts (expanded to canonical form first: knotd
 * reads no `$GENERATE`), signs its transfers with a TSIG key and NOTIFYs the local DNS front.
 * `force_axfr` pulls the zone and our export equals what knotd serves (`named-checkzone -D`
 * canonical form); changes made with `knotc` (a transaction each, knotd raising the serial) reach
 * us by NOTIFY and IXFR, never a whole transfer. Skipped, saying so, without knotd.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../scripts/lib/stack.mjs'
import { everyTypeZone } from '../api/import-export-fixture.ts'
import { stopChild, waitFor } from './tools/processes.ts'
import { stackApi } from './tools/stack-api.ts'
import { canonicalZone, exportZoneFile } from './tools/zone-files.ts'
import { makePeer, setIncoming } from './tools/transfer-settings.ts'

const KNOTD = ['/usr/sbin/knotd', '/usr/bin/knotd'].find(existsSync)
const KNOTC = ['/usr/sbin/knotc', '/usr/bin/knotc'].find(existsSync)
const base = inject('stackBase')
const token = inject('stackToken')
const zone = `knotin-${Date.now().toString(36)}.example`
const SECRET = 'a25vdC1wcmltYXJ5LXNlY3JldC1mb3ItdGhlLXhmci1pbg=='
let dir = ''
let socket = ''
const run = promisify(execFile)
let front: { port: number; close(): void }
let knot: ChildProcess | undefined
let knotLog = ''
let knotPort = 0
let zoneId = ''

async function doh(name: string, type: string): Promise<any> {
  const res = await fetch(`${base}/dns-query?name=${name}&type=${type}`, {
    headers: { accept: 'application/dns-json' },
  })
  return res.json()
}

/** Waits until DoH's JSON answer for `name` `type` passes `check` (the build follows the commit). */
async function answered(name: string, type: string, check: (a: any) => boolean): Promise<void> {
  let last: any
  const ok = await waitFor(async () => check((last = await doh(name, type))), 15_000)
  expect(ok, JSON.stringify(last)).toBe(true)
}

const firstData = (a: any): unknown => a.Answer?.[0]?.data

const canonical = (file: string): string[] => canonicalZone(zone, file)

/** AXFRs this test has asked of knotd itself (`served`): knotd logs them as it logs ours. */
let ownAxfrs = 0

/** What knotd serves (an AXFR from it, signed), canonical. */
async function served(): Promise<string[]> {
  ownAxfrs++
  const { stdout } = await run('dig', [
    '-p',
    String(knotPort),
    '@127.0.0.1',
    '-y',
    `hmac-sha256:knotin-key:${SECRET}`,
    zone,
    'AXFR',
  ])
  const file = path.join(dir, 'served.zone')
  // dig prints the answer's TSIG record among the records: not part of the zone.
  writeFileSync(
    file,
    stdout
      .split('\n')
      .filter((l) => !/\sANY\s+TSIG\s/.test(l))
      .join('\n')
  )
  return canonical(file)
}

async function ours(): Promise<string[]> {
  return canonical(await exportZoneFile(zoneId, path.join(dir, 'export.zone')))
}

/** One knotc transaction on the zone: `changes` are `zone-set`/`zone-unset` argument lists. */
async function knotcCommit(changes: string[][]): Promise<void> {
  const knotc = (...args: string[]) => run(KNOTC!, ['-s', socket, ...args])
  await knotc('zone-begin', zone)
  for (const [op, ...rest] of changes) await knotc(op!, zone, ...rest)
  await knotc('zone-commit', zone)
}

/** Waits until our export equals what knotd serves; knotd's log since `from` for the checks. */
async function followed(from: number): Promise<string> {
  const theirs = await served()
  const same = await waitFor(async () => {
    const held = await ours()
    return held.length === theirs.length && held.every((l, i) => l === theirs[i])
  }, 20_000)
  const log = knotLog.slice(from)
  if (!same) expect(await ours(), log).toEqual(theirs)
  return log
}

describe.skipIf(!KNOTD || !KNOTC)('Knot DNS as the primary of our secondary zone', () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'edgedns-knotin-'))
    socket = path.join(dir, 'knot.sock')
    knotPort = await freePort()
    front = await startDnsFront({ target: base, notify: { token } })
    // knotd reads no $GENERATE: it loads the fixture as BIND expands it.
    const source = path.join(dir, 'source.zone')
    writeFileSync(source, everyTypeZone(zone))
    const zoneFile = path.join(dir, `${zone}.zone`)
    execFileSync('named-checkzone', ['-D', '-q', '-o', zoneFile, zone, source])
    // knotd keeps the changes of a knotc transaction in its journal, under the database storage.
    mkdirSync(path.join(dir, 'db'))
    const conf = path.join(dir, 'knot.conf')
    writeFileSync(
      conf,
      `server:
  listen: 127.0.0.1@${knotPort}
  rundir: "${dir}"
control:
  listen: "${socket}"
log:
  - target: stderr
    any: info
database:
  storage: "${dir}/db"
key:
  - id: knotin-key
    algorithm: hmac-sha256
    secret: ${SECRET}
remote:
  - id: front
    address: 127.0.0.1@${front.port}
    key: knotin-key
acl:
  - id: secondaries
    address: 127.0.0.1
    key: knotin-key
    action: transfer
zone:
  - domain: ${zone}
    storage: "${dir}"
    file: "${zoneFile}"
    notify: front
    acl: secondaries
    zonefile-sync: -1
`
    )
    knot = spawn(KNOTD!, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] })
    knot.stderr?.on('data', (c) => (knotLog += String(c)))
    knot.stdout?.on('data', (c) => (knotLog += String(c)))
    const up = await waitFor(async () => /loaded, serial/.test(knotLog), 20_000)
    expect(up, knotLog).toBe(true)

    const [account] = (await stackApi('GET', '/accounts')).result
    zoneId = (
      await stackApi('POST', '/zones', {
        name: zone,
        account: { id: account.id },
        type: 'secondary',
      })
    ).result.id
    const primary = await makePeer({
      accountId: account.id,
      name: 'knotd-primary',
      ip: '127.0.0.1',
      port: knotPort,
      ixfr: true,
      tsig: { name: 'knotin-key', secret: SECRET },
    })
    await setIncoming(zoneId, zone, [primary])
  }, 60_000)

  afterAll(async () => {
    await stopChild(knot)
    front?.close()
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
  })

  it('pulls the zone of every type by AXFR with TSIG: our export equals what knotd serves', async () => {
    const res = await fetch(`${base}/client/v4/zones/${zoneId}/secondary_dns/force_axfr`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    const log = await followed(0)
    // knotd served an AXFR that was not one of this test's own: ours.
    const axfrs = knotLog.match(/AXFR, outgoing.*started/g) ?? []
    expect(axfrs.length, log).toBeGreaterThan(ownAxfrs)
    await answered(`www.${zone}`, 'AAAA', (a) => firstData(a) === '2001:db8::1')
    await answered(`host3.gen.${zone}`, 'A', (a) => firstData(a) === '198.51.100.3')
    await answered(`svc.${zone}`, 'SVCB', (a) =>
      /^2 svc\.example\.net\. /.test(firstData(a) as string)
    )
  })

  it('follows knotc transactions by NOTIFY and IXFR, additions and removals, never a whole transfer', async () => {
    const from = knotLog.length
    const axfrsBefore = ownAxfrs
    await knotcCommit([
      ['zone-set', 'added', '300', 'A', '192.0.2.99'],
      ['zone-set', 'added', '300', 'TXT', '"knot \\"quoted\\" text"'],
      ['zone-unset', 'mail', 'A'],
      // A delegation with its glue: the glue is held, and served in the referral.
      ['zone-set', 'deleg', '300', 'NS', 'ns.deleg'],
      ['zone-set', 'ns.deleg', '300', 'A', '192.0.2.53'],
    ])
    const first = await followed(from)
    expect(first).toMatch(/IXFR, outgoing/)
    await answered(`added.${zone}`, 'A', (a) => firstData(a) === '192.0.2.99')
    await answered(`mail.${zone}`, 'A', (a) => a.Status === 3)
    const referral = await doh(`host.deleg.${zone}`, 'A')
    expect(referral.Authority?.[0]?.data, JSON.stringify(referral)).toBe(`ns.deleg.${zone}.`)

    const next = knotLog.length
    await knotcCommit([
      ['zone-unset', 'added', 'TXT'],
      ['zone-set', 'www', '600', 'A', '192.0.2.222'],
      ['zone-set', '@', '300', 'MX', '30', 'mx3.example.net.'],
    ])
    const second = await followed(next)
    expect(second).toMatch(/IXFR, outgoing/)
    // Every AXFR knotd served since the first change was this test's own.
    const axfrs = knotLog.slice(from).match(/AXFR, outgoing.*started/g) ?? []
    expect(axfrs.length, knotLog.slice(from)).toBe(ownAxfrs - axfrsBefore)
    await answered(`www.${zone}`, 'A', (a) => a.Answer?.length === 2)
    const www = (await doh(`www.${zone}`, 'A')).Answer.map((a: any) => a.data).sort()
    expect(www).toEqual(['192.0.2.2', '192.0.2.222'])
  })
})
