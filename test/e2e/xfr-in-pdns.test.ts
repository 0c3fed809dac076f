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
 * (it logs "IXFR fallback to AXFR"), so each change reaches us as a whole transfer. Skipped
 * without pdns_server, pdnsutil or the SQLite schema.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
import { stopChild, waitFor } from './tools/processes.ts'
import { stackApi } from './tools/stack-api.ts'
import { canonicalZone, exportZoneFile } from './tools/zone-files.ts'
import { makePeer, setIncoming } from './tools/transfer-settings.ts'

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

const pdnsutil = (...args: string[]) => run(PDNSUTIL!, [`--config-dir=${dir}`, ...args])

/** Transfers this test has asked of PowerDNS itself (`served`): it logs them as it logs ours. */
let ownTransfers = 0

/** dig's transfer of the zone from PowerDNS (`AXFR`, or `IXFR=serial`), signed with the key. */
async function dig(type: string, signed = true): Promise<string> {
  ownTransfers++
  const key = signed ? ['-y', `hmac-sha256:${KEY}:${SECRET}`] : []
  const args = ['-p', String(pdnsPort), '@127.0.0.1', ...key, zone, type]
  return (await run('dig', args)).stdout
}

/** What PowerDNS serves to `type` (AXFR, or an IXFR answered whole), canonical. */
async function served(type = 'AXFR'): Promise<string[]> {
  const file = path.join(dir, 'served.zone')
  // dig prints the answer's TSIG record among the records: not part of the zone.
  const lines = (await dig(type)).split('\n').filter((l) => !/\sANY\s+TSIG\s/.test(l))
  writeFileSync(file, lines.join('\n'))
  return canonical(file)
}

async function ours(): Promise<string[]> {
  return canonical(await exportZoneFile(zoneId, path.join(dir, 'export.zone')))
}

/** Waits until our export equals what PowerDNS serves; its log since `from` for the checks. */
async function followed(from: number): Promise<string> {
  const theirs = await served()
  const same = await waitFor(async () => {
    const held = await ours()
    return held.length === theirs.length && held.every((l, i) => l === theirs[i])
  }, 20_000)
  const log = pdnsLog.slice(from)
  if (!same) expect(await ours(), log).toEqual(theirs)
  return log
}

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
      name: 'pdns-primary',
      ip: '127.0.0.1',
      port: pdnsPort,
      ixfr: true,
      tsig: { name: KEY, secret: SECRET },
    })
    await setIncoming(zoneId, zone, [primary])
  }, 60_000)

  afterAll(async () => {
    await stopChild(pdns)
    front?.close()
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
  })

  it('pulls the zone of every type by signed AXFR: our export equals what PowerDNS serves', async () => {
    // Unsigned, PowerDNS refuses the transfer.
    expect(await dig('AXFR', false)).toMatch(/Transfer failed/)
    const res = await fetch(`${base}/client/v4/zones/${zoneId}/secondary_dns/force_axfr`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    const log = await followed(0)
    // Every transfer but the unsigned one above was signed, ours too.
    expect(count(log, signedAxfr), log).toBeGreaterThan(ownTransfers - 1)
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
    const own = ownTransfers
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
    await answered(`added.${zone}`, 'A', (a) => firstData(a) === '192.0.2.99')
    await answered(`mail.${zone}`, 'A', (a) => a.Status === 3)
    const referral = await doh(`host.deleg.${zone}`, 'A')
    expect(referral.Authority?.[0]?.data, JSON.stringify(referral)).toBe(`ns.deleg.${zone}.`)

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
    await answered(`www.${zone}`, 'A', (a) => a.Answer?.length === 2)
    const www = (await doh(`www.${zone}`, 'A')).Answer.map((a: any) => a.data).sort()
    expect(www).toEqual(['192.0.2.2', '192.0.2.222'])

    // Each IXFR was answered by a whole transfer (this test asks only AXFR here): every transfer
    // PowerDNS started is the test's own or an IXFR's fallback.
    const log = pdnsLog.slice(from)
    expect(count(log, fallback), log).toBeGreaterThanOrEqual(2)
    expect(count(log, started), log).toBe(ownTransfers - own + count(log, fallback))
  })
})
