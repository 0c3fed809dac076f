/**
 * PowerDNS Authoritative (`pdns_server`, SQLite backend) as the primary of one of our secondary
 * zones, beside the BIND and Knot tests. PowerDNS holds the zone of every record type the API
 * accepts (expanded to canonical form by BIND first), transfers it only when the request is signed
 * with a TSIG key, and sends a signed NOTIFY to the local DNS front whenever the zone's serial goes
 * up. `force_axfr` pulls the zone and our export equals what PowerDNS serves (`named-checkzone -D`
 * canonical form). PowerDNS leaves the stored apex DNSKEY out of its AXFR (it serves DNSKEY only
 * from its own key store), so we hold what it serves, not the file it loaded.
 *
 * Changes made with `pdnsutil` (then `increase-serial`) reach us: PowerDNS sees the new serial
 * and NOTIFYs us, we ask IXFR, and our export equals what it serves again. PowerDNS 4.7 serves no
 * incremental IXFR as a primary: to an IXFR from an older serial it answers with the whole zone
 * (it logs "IXFR fallback to AXFR"), so each change reaches us as a whole transfer, which we apply
 * as its difference from the copy we hold (records untouched keep their ids). Skipped
 * without pdns_server, pdnsutil or the SQLite schema.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../scripts/lib/stack.mjs'
import { everyTypeZone } from '../api/import-export-fixture.ts'
import { PDNSUTIL, PDNS_SERVER as PDNS, createPdnsDatabase, hasPdns } from './tools/pdns.ts'
import {
  answered,
  firstChangeAnswered,
  firstData,
  forceAxfr,
  ourSecondaryZone,
  primaryChecks,
  recordIds,
  secondChangeAnswered,
} from './tools/primary-of-ours.ts'
import { cleanUp, waitFor } from './tools/processes.ts'

const base = inject('stackBase')
const token = inject('stackToken')
const zone = `pdnsin-${Date.now().toString(36)}.example`
const KEY = 'pdns-xfr-key'
const SECRET = 'cGRucy1wcmltYXJ5LXNlY3JldC1mb3ItdGhlLXhmci1pbi10ZXN0'
const FIRST_SERIAL = 2024010101
let dir = ''
const run = promisify(execFile)
let front: { port: number; close(): void }
let pdns: ChildProcess | undefined
let pdnsLog = ''
let pdnsPort = 0
let zoneId = ''

const pdnsutil = (...args: string[]) => run(PDNSUTIL!, [`--config-dir=${dir}`, ...args])

const { dig, served, ours, followed, transfers } = primaryChecks({
  zone,
  dir: () => dir,
  port: () => pdnsPort,
  zoneId: () => zoneId,
  key: { name: KEY, secret: SECRET },
  log: () => pdnsLog,
})

/** Applies `changes` (pdnsutil commands on the zone) and raises the serial, as an operator does. */
async function change(changes: string[][]): Promise<void> {
  for (const [command, ...rest] of changes) await pdnsutil(command!, zone, ...rest)
  await pdnsutil('increase-serial', zone)
}

const count = (log: string, re: RegExp): number => log.match(new RegExp(re, 'g'))?.length ?? 0
/** A line PowerDNS logs of an outgoing `xfr` (AXFR or IXFR) of the zone to 127.0.0.1. */
const xfrOut = (xfr: string, rest: string) =>
  new RegExp(`${xfr}-out zone '${zone}', client '127\\.0\\.0\\.1', ${rest}`)
const started = xfrOut('AXFR', 'transfer initiated')
const fallback = xfrOut('IXFR', 'IXFR fallback to AXFR')
/** An IXFR asked from `serial` (our secondary's, the serial it holds). */
const asked = (serial: number) => xfrOut('IXFR', `transfer initiated with serial ${serial}`)
const signedBy = `allowed: TSIG signed request with authorized key '${KEY}'`
const signedAxfr = new RegExp(`AXFR-out zone '${zone}', client '[\\d.:]+', ${signedBy}`)

/** Waits until PowerDNS logs, after `from`, that the DNS front acknowledged its NOTIFY. */
async function acknowledged(from: number): Promise<void> {
  const ack = `'${zone}' to 127.0.0.1:${front.port} (was acknowledged)`
  const logged = () => pdnsLog.includes(`Removed from notification list: ${ack}`, from)
  expect(await waitFor(logged, 10_000), pdnsLog.slice(from)).toBe(true)
}

describe.skipIf(!hasPdns)('PowerDNS as the primary of our secondary zone', () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'edgedns-pdnsin-'))
    pdnsPort = await freePort()
    front = await startDnsFront({ target: base, notify: { token } })
    const database = path.join(dir, 'pdns.sqlite3')
    createPdnsDatabase(database)
    // allow-axfr-ips empty: PowerDNS otherwise lets 127.0.0.0/8 transfer unsigned. only-notify
    // empty: NOTIFY goes to the also-notify address only, not to the zone's NS names. No caches,
    // so a SOA query sees a new serial at once; PowerDNS checks the serial every second.
    writeFileSync(
      path.join(dir, 'pdns.conf'),
      `launch=gsqlite3
gsqlite3-database=${database}
local-address=127.0.0.1
local-port=${pdnsPort}
primary=yes
allow-axfr-ips=
only-notify=
xfr-cycle-interval=1
cache-ttl=0
query-cache-ttl=0
negquery-cache-ttl=0
socket-dir=${dir}
disable-syslog=yes
loglevel=6
setuid=
setgid=
`
    )
    // PowerDNS loads the fixture as BIND expands it ($GENERATE), but CERT's type and algorithm
    // in numbers: it reads no mnemonics there.
    const source = path.join(dir, 'source.zone')
    writeFileSync(source, everyTypeZone(zone))
    const expanded = execFileSync('named-checkzone', ['-D', '-q', '-o', '-', zone, source], {
      encoding: 'utf8',
    })
    const zoneFile = path.join(dir, `${zone}.zone`)
    writeFileSync(
      zoneFile,
      expanded.replace(/(\sCERT\s+)PKIX (\d+) RSASHA256 /, (_, t, tag) => `${t}1 ${tag} 8 `)
    )
    await pdnsutil('load-zone', zone, zoneFile)
    await pdnsutil('set-kind', zone, 'primary')
    await pdnsutil('import-tsig-key', KEY, 'hmac-sha256', SECRET)
    // Transfers only signed with the key; NOTIFYs signed with it too (send-signed-notify).
    await pdnsutil('set-meta', zone, 'TSIG-ALLOW-AXFR', KEY)
    await pdnsutil('set-meta', zone, 'ALSO-NOTIFY', `127.0.0.1:${front.port}`)
    pdns = spawn(PDNS!, [`--config-dir=${dir}`, '--daemon=no', '--guardian=no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    pdns.stderr?.on('data', (c) => (pdnsLog += String(c)))
    pdns.stdout?.on('data', (c) => (pdnsLog += String(c)))
    const up = await waitFor(async () => /ready to distribute questions/.test(pdnsLog), 20_000)
    expect(up, pdnsLog).toBe(true)

    zoneId = await ourSecondaryZone(zone, {
      peer: 'pdns-primary',
      port: pdnsPort,
      key: { name: KEY, secret: SECRET },
    })
  }, 60_000)

  afterAll(() => cleanUp({ child: pdns, front, dir }))

  it('pulls the zone of every type by signed AXFR: our export equals what PowerDNS serves', async () => {
    // Unsigned, PowerDNS refuses the transfer.
    expect(await dig('AXFR', false)).toMatch(/Transfer failed/)
    expect(await forceAxfr(zoneId)).toBe(200)
    const log = await followed(0)
    // Every transfer but the unsigned one above was signed, ours too.
    expect(count(log, signedAxfr), log).toBeGreaterThan(transfers() - 1)
    // The DNSKEY of the file is stored but not transferred: we hold what PowerDNS serves.
    const held = await ours()
    expect(held.length).toBeGreaterThan(40)
    expect(held.filter((l) => /\sDNSKEY\s/.test(l))).toEqual([])
    await answered(`www.${zone}`, 'AAAA', (a) => firstData(a) === '2001:db8::1')
    await answered(`host3.gen.${zone}`, 'A', (a) => firstData(a) === '198.51.100.3')
    await answered(`svc.${zone}`, 'SVCB', (a) =>
      /^2 svc\.example\.net\. /.test(firstData(a) as string)
    )
  })

  it('answers an IXFR from an older serial with the whole zone: it serves no increments', async () => {
    await change([['replace-rrset', 'probe', 'A', '300', '192.0.2.77']])
    const from = pdnsLog.length
    const whole = await served(`IXFR=${FIRST_SERIAL}`)
    expect(whole).toEqual(await served())
    expect(whole.some((l) => /^probe\./.test(l))).toBe(true)
    expect(pdnsLog.slice(from)).toMatch(fallback)
    await answered(`probe.${zone}`, 'A', (a) => firstData(a) === '192.0.2.77')
  })

  it('follows pdnsutil changes by signed NOTIFY, its IXFR answered with the whole zone', async () => {
    const notified = `Queued also-notification of domain '${zone}' to 127.0.0.1:${front.port}`
    const from = pdnsLog.length
    const own = transfers()
    const idsBefore = await recordIds(zoneId)
    await change([
      ['replace-rrset', 'added', 'A', '300', '192.0.2.99'],
      ['add-record', 'added', 'TXT', '300', '"pdns \\"quoted\\" text"'],
      ['delete-rrset', 'mail', 'A'],
      ['delete-rrset', 'probe', 'A'],
      // A delegation with its glue: the glue is held, and served in the referral.
      ['replace-rrset', 'deleg', 'NS', '300', `ns.deleg.${zone}.`],
      ['replace-rrset', 'ns.deleg', 'A', '300', '192.0.2.53'],
    ])
    const first = await followed(from)
    // The API accepts a NOTIFY only when signed with the primary's key: PowerDNS signed it.
    expect(first).toContain(notified)
    expect(first).toMatch(asked(FIRST_SERIAL + 1))
    await acknowledged(from)
    await firstChangeAnswered(zone)

    const next = pdnsLog.length
    await change([
      ['delete-rrset', 'added', 'TXT'],
      ['add-record', 'www', 'A', '600', '192.0.2.222'],
      ['add-record', '@', 'MX', '3600', '30 mx3.example.net.'],
    ])
    const second = await followed(next)
    expect(second).toContain(notified)
    expect(second).toMatch(asked(FIRST_SERIAL + 2))
    await acknowledged(next)
    await secondChangeAnswered(zone)

    // Each IXFR was answered by a whole transfer (this test asks only AXFR here): every transfer
    // PowerDNS started is the test's own or an IXFR's fallback.
    const log = pdnsLog.slice(from)
    expect(count(log, fallback), log).toBeGreaterThanOrEqual(2)
    expect(count(log, started), log).toBe(transfers() - own + count(log, fallback))
    // Each whole transfer was applied as its difference from the copy held: the records neither
    // change touched kept their ids (a whole replacement gives every record a new one).
    const idsAfter = await recordIds(zoneId)
    const untouched = [...idsBefore].filter(([line]) => idsAfter.has(line))
    expect(untouched.length).toBeGreaterThan(20)
    for (const [line, id] of untouched) expect(idsAfter.get(line), line).toBe(id)
  })
})
