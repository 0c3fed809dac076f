/**
 * BIND 9 `named` as the primary of one of our secondary zones: incoming settings name named (on a
 * free port, TSIG key), `force_axfr` pulls the zone, it answers over DoH, and our export equals
 * named's zone in `named-checkzone -D` canonical form; a change on named (nsupdate) sends a
 * NOTIFY to the local DNS front, which relays it to the API, and the zone follows by IXFR; with a
 * short SOA expire and named stopped, the zone stops answering (SERVFAIL) until a transfer
 * succeeds again.
 */
import { execFile, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
import { stopChild, waitFor } from './tools/processes.ts'
import { stackApi } from './tools/stack-api.ts'
import { canonicalZone, exportZoneFile } from './tools/zone-files.ts'
import { makePeer, setIncoming } from './tools/transfer-settings.ts'

const base = inject('stackBase')
const token = inject('stackToken')
const zone = `xfrin-${Date.now().toString(36)}.example`
const SECRET = 'eGZyLWluLXRlc3Qtc2VjcmV0LW9mLXRoaXJ0eS10d28tb2N0ZXRz'
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-xfrin-'))
const zoneFile = path.join(dir, `${zone}.db`)
let named: ChildProcess | undefined
let namedLog: () => string = () => ''
let namedPort = 0
let zoneId = ''
let accountId = ''
let front: { port: number; close(): void }
const run = promisify(execFile)

/** The primary's zone: apex NS naming our servers (as a zone served by us would). */
function zoneText(serial: number, extra = '', timers = '7200 900 1209600'): string {
  return `$ORIGIN ${zone}.
$TTL 300
@ 3600 IN SOA ns.primary.test. hostmaster.primary.test. ${serial} ${timers} 300
@ 86400 IN NS ns1.edgedns.dev.
@ 86400 IN NS ns2.edgedns.dev.
@ IN A 192.0.2.10
@ IN MX 10 mail
@ IN TXT "v=spf1 -all"
www IN A 192.0.2.11
www IN AAAA 2001:db8::11
mail IN A 192.0.2.12
alias IN CNAME www
_sip._tcp IN SRV 10 20 5060 sip
sip 600 IN A 192.0.2.13
@ IN CAA 0 issue "letsencrypt.org"
${extra}`
}

/** Starts named and waits until it has loaded the zone. */
async function startNamed(): Promise<void> {
  const zones = `zone "${zone}" {
  type primary;
  file "${zoneFile}";
  allow-transfer { key "xfr-in-key"; };
  allow-update { key "xfr-in-key"; };
  also-notify { 127.0.0.1 port ${front.port} key "xfr-in-key"; };
};`
  const keys = { 'xfr-in-key': SECRET }
  const started = spawnNamed(
    dir,
    namedConf({ dir, port: namedPort, options: ['notify explicit;'], keys, zones })
  )
  named = started.child
  namedLog = started.log
  const up = await waitFor(() => /all zones loaded|running/.test(namedLog()), 20_000)
  expect(up, namedLog()).toBe(true)
}

const canonical = (file: string): string[] => canonicalZone(zone, file)

async function doh(name: string, type: string): Promise<any> {
  const res = await fetch(`${base}/dns-query?name=${name}&type=${type}`, {
    headers: { accept: 'application/dns-json' },
  })
  return res.json()
}

/**
 * Sends `updates` (nsupdate commands, each change closed by `send`) to named, signed with the key,
 * and waits until `name` answers A `ip`; what named logged meanwhile.
 */
async function updateNamed(updates: string, name: string, ip: string): Promise<string> {
  const before = namedLog().length
  const script = `server 127.0.0.1 ${namedPort}\nzone ${zone}\n${updates}`
  await run('sh', ['-c', `printf '%s' "$0" | nsupdate -y hmac-sha256:xfr-in-key:${SECRET}`, script])
  const followed = await waitFor(
    async () => (await doh(name, 'A')).Answer?.[0]?.data === ip,
    20_000
  )
  const log = namedLog().slice(before)
  expect(followed, log).toBe(true)
  return log
}

async function forceAxfr(): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/client/v4/zones/${zoneId}/secondary_dns/force_axfr`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  })
  return { status: res.status, body: await res.json() }
}

beforeAll(async () => {
  namedPort = await freePort()
  front = await startDnsFront({ target: base, notify: { token } })
  writeFileSync(zoneFile, zoneText(2026112601))
  await startNamed()
  const [account] = (await stackApi('GET', '/accounts')).result
  accountId = account.id
  zoneId = (
    await stackApi('POST', '/zones', { name: zone, account: { id: account.id }, type: 'secondary' })
  ).result.id
}, 60_000)

afterAll(async () => {
  await stopChild(named)
  front?.close()
  // named may still be writing its journal while it exits: retry the removal.
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
})

describe('BIND named as the primary of our secondary zone', () => {
  it('refuses force_axfr while the zone has no incoming settings', async () => {
    const { status, body } = await forceAxfr()
    expect(status).toBe(404)
    expect(body.errors[0].code).toBe(10203)
  })

  it('pulls the zone by AXFR with TSIG: it answers over DoH and exports as named holds it', async () => {
    const primary = await makePeer({
      accountId,
      name: 'named-primary',
      ip: '127.0.0.1',
      port: namedPort,
      ixfr: true,
      tsig: { name: 'xfr-in-key', secret: SECRET },
    })
    await setIncoming(zoneId, zone, [primary])
    // Through the official SDK, as a Cloudflare user would.
    const cf = new Cloudflare({ apiToken: token, baseURL: `${base}/client/v4`, maxRetries: 0 })
    expect(await cf.dns.zoneTransfers.forceAXFR.create({ zone_id: zoneId })).toBe('OK')
    const answered = await waitFor(
      async () => (await doh(`www.${zone}`, 'A')).Answer?.[0]?.data === '192.0.2.11',
      15_000
    )
    expect(answered).toBe(true)
    const soa = await doh(zone, 'SOA')
    expect(soa.Answer[0].data).toContain('2026112601')

    const exported = await exportZoneFile(zoneId, path.join(dir, 'export.zone'))
    expect(canonical(exported)).toEqual(canonical(zoneFile))
  })

  it('follows a change on named: NOTIFY through the DNS front, then IXFR', async () => {
    const update = `update add added.${zone} 300 IN A 192.0.2.99
update delete mail.${zone} A
send
`
    const log = await updateNamed(update, `added.${zone}`, '192.0.2.99')
    expect(log).toMatch(/IXFR started/)
    expect((await doh(`mail.${zone}`, 'A')).Status).toBe(3)
    expect((await doh(zone, 'SOA')).Answer[0].data).toContain('2026112602')
  })

  it('applies two changes made together on named as IXFR, a record added by one and removed by the next', async () => {
    const update = `update add step.${zone} 300 IN A 192.0.2.50
send
update delete step.${zone} A
update add step2.${zone} 300 IN A 192.0.2.51
send
`
    const log = await updateNamed(update, `step2.${zone}`, '192.0.2.51')
    expect((await doh(`step.${zone}`, 'A')).Status).toBe(3)
    expect(log).toMatch(/IXFR started/)
    // Never pulled whole after the IXFR (an IXFR of two steps used to be asked again as AXFR).
    expect(log).not.toMatch(/AXFR started/)
  })

  it('stops answering once the SOA expire passes without the primary, and resumes after a transfer', async () => {
    named?.kill('SIGTERM')
    await new Promise((r) => named?.once('exit', r))
    rmSync(`${zoneFile}.jnl`, { force: true })
    // refresh 4, retry 2, expire 8 seconds (the stack's minimum refresh and retry are 1 second,
    // global-setup.ts; the expire is at least refresh + retry).
    writeFileSync(zoneFile, zoneText(2026112610, '', '4 2 8'))
    await startNamed()
    expect((await forceAxfr()).status).toBe(200)
    const soaServed = await waitFor(
      async () => ((await doh(zone, 'SOA')).Answer?.[0]?.data ?? '').includes(' 2026112610 '),
      15_000
    )
    expect(soaServed).toBe(true)
    named?.kill('SIGTERM')
    await new Promise((r) => named?.once('exit', r))

    const stopped = await waitFor(async () => (await doh(`www.${zone}`, 'A')).Status === 2, 30_000)
    expect(stopped).toBe(true)
    expect((await doh(zone, 'SOA')).Status).toBe(2)

    await startNamed()
    expect((await forceAxfr()).status).toBe(200)
    const resumed = await waitFor(
      async () => (await doh(`www.${zone}`, 'A')).Answer?.[0]?.data === '192.0.2.11',
      15_000
    )
    expect(resumed).toBe(true)
  })
})
