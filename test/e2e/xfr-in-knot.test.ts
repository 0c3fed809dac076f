/**
 * Knot DNS (`knotd`) as the primary of one of our secondary zones, beside the BIND test: knotd
 * serves the zone of every record type the API accepts (expanded to canonical form first: knotd
 * reads no `$GENERATE`), signs its transfers with a TSIG key and NOTIFYs the local DNS front.
 * `force_axfr` pulls the zone and our export equals what knotd serves (`named-checkzone -D`
 * canonical form); changes made with `knotc` (a transaction each, knotd raising the serial) reach
 * us by NOTIFY and IXFR, never a whole transfer. Skipped, saying so, without knotd.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../scripts/lib/stack.mjs'
import { everyTypeZone } from '../api/import-export-fixture.ts'
import {
  answered,
  firstChangeAnswered,
  firstData,
  forceAxfr,
  ourSecondaryZone,
  primaryChecks,
  secondChangeAnswered,
} from './tools/primary-of-ours.ts'
import { cleanUp, waitFor } from './tools/processes.ts'

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

const { served, followed, transfers } = primaryChecks({
  zone,
  dir: () => dir,
  port: () => knotPort,
  zoneId: () => zoneId,
  key: { name: 'knotin-key', secret: SECRET },
  log: () => knotLog,
})

/** One knotc transaction on the zone: `changes` are `zone-set`/`zone-unset` argument lists. */
async function knotcCommit(changes: string[][]): Promise<void> {
  const knotc = (...args: string[]) => run(KNOTC!, ['-s', socket, ...args])
  await knotc('zone-begin', zone)
  for (const [op, ...rest] of changes) await knotc(op!, zone, ...rest)
  await knotc('zone-commit', zone)
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

    zoneId = await ourSecondaryZone(zone, {
      peer: 'knotd-primary',
      port: knotPort,
      key: { name: 'knotin-key', secret: SECRET },
    })
  }, 60_000)

  afterAll(() => cleanUp({ child: knot, front, dir }))

  it('pulls the zone of every type by AXFR with TSIG: our export equals what knotd serves', async () => {
    expect(await forceAxfr(zoneId)).toBe(200)
    const log = await followed(0)
    // knotd served an AXFR that was not one of this test's own: ours.
    const axfrs = knotLog.match(/AXFR, outgoing.*started/g) ?? []
    expect(axfrs.length, log).toBeGreaterThan(transfers())
    await answered(`www.${zone}`, 'AAAA', (a) => firstData(a) === '2001:db8::1')
    await answered(`host3.gen.${zone}`, 'A', (a) => firstData(a) === '198.51.100.3')
    await answered(`svc.${zone}`, 'SVCB', (a) =>
      /^2 svc\.example\.net\. /.test(firstData(a) as string)
    )
  })

  it('follows knotc transactions by NOTIFY and IXFR, additions and removals, never a whole transfer', async () => {
    const from = knotLog.length
    const axfrsBefore = transfers()
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
    await firstChangeAnswered(zone)

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
    expect(axfrs.length, knotLog.slice(from)).toBe(transfers() - axfrsBefore)
    await secondChangeAnswered(zone)
  })
})
