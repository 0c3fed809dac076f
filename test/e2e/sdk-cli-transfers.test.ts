/**
 * The edgedns CLI's `transfer` commands against the stack: a secondary zone pulled from BIND 9
 * `named` (TSIG) by `transfer axfr` and described by `transfer status`, which then answers over
 * DoH; a primary zone's outgoing transfers shown and notified; a failed AXFR's exit and message.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { collect, EdgeDns } from '@edgedns/sdk'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { edgedns } from './tools/edgedns-cli.ts'
import { namedPrimary } from './tools/named-primary.ts'
import { stopChild, waitFor } from './tools/processes.ts'

const SERIAL = 2026112901
const stamp = Date.now().toString(36)
const KEY = `cli-${stamp}.key`
const SECRET = 'Y2xpLXRyYW5zZmVyLXRlc3Qtc2VjcmV0LTMyLW9jdGV0cw=='
const secondary = `cli-in-${stamp}.example`
const dns = new EdgeDns({ baseUrl: inject('stackBase'), token: inject('stackToken') })
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-cli-xfr-'))
const made: { zones: string[]; peers: string[]; tsig?: string; outgoing?: string } = {
  zones: [],
  peers: [],
}
let accountId = ''
let named: ChildProcess | undefined
let namedPort = 0

const cli = edgedns

beforeAll(async () => {
  accountId = (await collect(dns.accounts.list()))[0]!.id
  const primary = await namedPrimary({
    dir,
    zone: secondary,
    key: { name: KEY, secret: SECRET },
    zoneText: `$ORIGIN ${secondary}.
$TTL 300
@ 3600 IN SOA ns.primary.test. hostmaster.primary.test. ${SERIAL} 7200 900 1209600 300
@ 86400 IN NS ns1.edgedns.dev.
www IN A 192.0.2.11
`,
  })
  named = primary.child
  namedPort = primary.port
}, 60_000)

afterAll(async () => {
  // Everything made in the account the e2e tests share: no peer at loopback is left behind.
  for (const id of made.zones) await dns.zones.delete(id).catch(() => {})
  for (const id of made.peers) await dns.transfers.peers.delete(accountId, id).catch(() => {})
  if (made.tsig) await dns.transfers.tsigs.delete(accountId, made.tsig).catch(() => {})
  await stopChild(named)
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
})

/** A peer of the account at `ip` `port`, with the test's TSIG key when `tsig`. */
async function peer(name: string, ip: string, port: number, tsig: boolean): Promise<string> {
  const p = await dns.transfers.peers.create(accountId, { name })
  made.peers.push(p.id)
  await dns.transfers.peers.update(accountId, p.id, {
    name,
    ip,
    port,
    ...(tsig && made.tsig ? { tsig_id: made.tsig } : {}),
  })
  return p.id
}

describe('edgedns transfer', () => {
  it('pulls a secondary zone from named by AXFR, describes it, and it answers over DoH', async () => {
    made.tsig = (
      await dns.transfers.tsigs.create(accountId, {
        name: KEY,
        algo: 'hmac-sha256',
        secret: SECRET,
      })
    ).id
    const primary = await peer(`cli-named-${stamp}`, '127.0.0.1', namedPort, true)
    const zone = await dns.zones.create({ name: secondary, type: 'secondary' })
    made.zones.push(zone.id)
    await dns.transfers.incoming.create(zone.id, {
      name: secondary,
      peers: [primary],
      auto_refresh_seconds: 3600,
    })
    const pulled = cli('transfer', 'axfr', secondary)
    expect(pulled.code, pulled.err).toBe(0)
    expect(pulled.out).toBe(`transferred: serial ${SERIAL}\n`)
    const status = cli('transfer', 'status', secondary)
    expect(status.code, status.err).toBe(0)
    const lines = status.out.split('\n')
    expect(lines[0]).toBe(`${secondary}: secondary zone, serving, serial ${SERIAL}`)
    expect(lines[1]).toBe(`  primaries: cli-named-${stamp} 127.0.0.1#${namedPort}`)
    expect(status.out).toMatch(/ {2}expires: \d{4}-\d\d-\d\dT/)
    const json = JSON.parse(cli('transfer', 'status', zone.id, '--json').out)
    expect(json).toMatchObject({
      zone: { id: zone.id, type: 'secondary' },
      incoming: { soa_serial: SERIAL, serving: true, failed_checks: 0 },
    })
    const answered = await waitFor(
      () => cli('query', `www.${secondary}`, 'A').out.includes('192.0.2.11'),
      20_000,
      300
    )
    expect(answered).toBe(true)
  }, 60_000)

  it("shows a primary zone's outgoing transfers and sends a NOTIFY", async () => {
    const zone = await dns.zones.create({ name: `cli-out-${stamp}.example` })
    made.zones.push(zone.id)
    expect(cli('transfer', 'status', zone.name).out).toBe(
      `${zone.name}: full zone, no outgoing transfers\n`
    )
    const notify = cli('transfer', 'notify', zone.name)
    expect(notify.code).toBe(1)
    expect(notify.err).toContain('(api 4')
    // A secondary that is not there: the NOTIFY is sent and not answered.
    const to = await peer(`cli-secondary-${stamp}`, '192.0.2.54', 53, false)
    await dns.transfers.outgoing.create(zone.id, { name: zone.name, peers: [to] })
    await dns.transfers.outgoing.enable(zone.id)
    const sent = cli('transfer', 'notify', zone.id)
    expect(sent.code, sent.err).toBe(0)
    expect(sent.out).toBe('notify sent\n')
    const status = cli('transfer', 'status', zone.name).out.split('\n')
    expect(status[0]).toMatch(
      new RegExp(
        `^${zone.name.replaceAll('.', '\\.')}: full zone, outgoing transfers Enabled, serial \\d+$`
      )
    )
    expect(status[1]).toBe(`  secondaries: cli-secondary-${stamp} 192.0.2.54`)
  })

  it('an AXFR whose primary does not answer exits 1 naming it', async () => {
    const gone = await peer(`cli-gone-${stamp}`, '192.0.2.55', 53, false)
    const zone = await dns.zones.create({ name: `cli-gone-${stamp}.example`, type: 'secondary' })
    made.zones.push(zone.id)
    await dns.transfers.incoming.create(zone.id, {
      name: zone.name,
      peers: [gone],
      auto_refresh_seconds: 3600,
    })
    const failed = cli('transfer', 'axfr', zone.name)
    expect(failed.code).toBe(1)
    expect(failed.err).toContain('192.0.2.55')
    expect(failed.err).toContain('(api 502, code 10031)')
    expect(cli('transfer', 'status', zone.name).out).toContain('not serving, no copy held')
  }, 60_000)
})
