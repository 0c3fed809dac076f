/**
 * Another server as the primary of one of our secondary zones (Knot DNS, PowerDNS): what that
 * server serves (a transfer from it signed with the zone's key, canonical), what we hold (our
 * export, canonical), waiting until the two agree, and waiting for our DoH to answer a change.
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { expect, inject } from 'vitest'
import { waitFor } from './processes.ts'
import { stackApi } from './stack-api.ts'
import { makePeer, setIncoming } from './transfer-settings.ts'
import { canonicalZone, exportZoneFile } from './zone-files.ts'

const run = promisify(execFile)

/** DoH's JSON answer for `name` `type` from the e2e stack. */
async function doh(name: string, type: string): Promise<any> {
  const res = await fetch(`${inject('stackBase')}/dns-query?name=${name}&type=${type}`, {
    headers: { accept: 'application/dns-json' },
  })
  return res.json()
}

/** Waits until DoH's JSON answer for `name` `type` passes `check` (the build follows the commit). */
export async function answered(
  name: string,
  type: string,
  check: (a: any) => boolean
): Promise<void> {
  let last: any
  const ok = await waitFor(async () => check((last = await doh(name, type))), 15_000)
  expect(ok, JSON.stringify(last)).toBe(true)
}

export const firstData = (a: any): unknown => a.Answer?.[0]?.data

/** The primary of one of our secondary zones, as the test knows it once it has started. */
export interface PrimaryOfOurs {
  zone: string
  /** The test's directory (made in its `beforeAll`). */
  dir: () => string
  /** The primary's port on 127.0.0.1. */
  port: () => number
  /** Our secondary zone's id. */
  zoneId: () => string
  key: { name: string; secret: string }
  /** The primary's whole log. */
  log: () => string
}

/** The checks of a test of `primary`; `transfers()` counts the ones the test asked itself. */
export function primaryChecks(primary: PrimaryOfOurs) {
  let own = 0
  const canonical = (file: string): string[] => canonicalZone(primary.zone, file)

  /** dig's transfer of the zone from the primary (`AXFR`, or `IXFR=serial`), signed or not. */
  async function dig(type: string, signed = true): Promise<string> {
    own++
    const { name, secret } = primary.key
    const key = signed ? ['-y', `hmac-sha256:${name}:${secret}`] : []
    const args = ['-p', String(primary.port()), '@127.0.0.1', ...key, primary.zone, type]
    return (await run('dig', args)).stdout
  }

  /** What the primary serves to `type` (AXFR, or an IXFR), canonical. */
  async function served(type = 'AXFR'): Promise<string[]> {
    const file = path.join(primary.dir(), 'served.zone')
    // dig prints the answer's TSIG record among the records: not part of the zone.
    const lines = (await dig(type)).split('\n').filter((l) => !/\sANY\s+TSIG\s/.test(l))
    writeFileSync(file, lines.join('\n'))
    return canonical(file)
  }

  async function ours(): Promise<string[]> {
    const file = path.join(primary.dir(), 'export.zone')
    return canonical(await exportZoneFile(primary.zoneId(), file))
  }

  /** Waits until our export equals what the primary serves; its log since `from`. */
  async function followed(from: number): Promise<string> {
    const theirs = await served()
    const same = await waitFor(async () => {
      const held = await ours()
      return held.length === theirs.length && held.every((l, i) => l === theirs[i])
    }, 20_000)
    const log = primary.log().slice(from)
    if (!same) expect(await ours(), log).toEqual(theirs)
    return log
  }

  return { dig, served, ours, followed, transfers: () => own }
}

/**
 * Our secondary zone `zone` in the stack's first account, its primary a peer named `peer` at
 * 127.0.0.1:`port` signing with `key`, IXFR asked; its id.
 */
export async function ourSecondaryZone(
  zone: string,
  primary: { peer: string; port: number; key: { name: string; secret: string } }
): Promise<string> {
  const [account] = (await stackApi('GET', '/accounts')).result
  const body = { name: zone, account: { id: account.id }, type: 'secondary' }
  const zoneId: string = (await stackApi('POST', '/zones', body)).result.id
  const peer = await makePeer({
    accountId: account.id,
    name: primary.peer,
    ip: '127.0.0.1',
    port: primary.port,
    ixfr: true,
    tsig: primary.key,
  })
  await setIncoming(zoneId, zone, [peer])
  return zoneId
}

/** Our zone's records through the API, as `name type content ttl` → record id. */
export async function recordIds(zoneId: string): Promise<Map<string, string>> {
  const records: any[] = (await stackApi('GET', `/zones/${zoneId}/dns_records?per_page=5000`))
    .result
  return new Map(records.map((r) => [`${r.name} ${r.type} ${r.content} ${r.ttl}`, r.id]))
}

/** `POST …/secondary_dns/force_axfr` of our zone `zoneId`: its HTTP status. */
export async function forceAxfr(zoneId: string): Promise<number> {
  const url = `${inject('stackBase')}/client/v4/zones/${zoneId}/secondary_dns/force_axfr`
  const headers = { authorization: `Bearer ${inject('stackToken')}` }
  return (await fetch(url, { method: 'POST', headers })).status
}

/**
 * The DoH answers after the first change both primary tests make (`added` A 192.0.2.99 and a
 * TXT, `mail` A removed, `deleg` delegated with glue `ns.deleg` A 192.0.2.53).
 */
export async function firstChangeAnswered(zone: string): Promise<void> {
  await answered(`added.${zone}`, 'A', (a) => firstData(a) === '192.0.2.99')
  await answered(`mail.${zone}`, 'A', (a) => a.Status === 3)
  const referral = await doh(`host.deleg.${zone}`, 'A')
  expect(referral.Authority?.[0]?.data, JSON.stringify(referral)).toBe(`ns.deleg.${zone}.`)
}

/** The DoH answers after their second change (`www` gains A 192.0.2.222). */
export async function secondChangeAnswered(zone: string): Promise<void> {
  await answered(`www.${zone}`, 'A', (a) => a.Answer?.length === 2)
  const www = (await doh(`www.${zone}`, 'A')).Answer.map((a: any) => a.data).sort()
  expect(www).toEqual(['192.0.2.2', '192.0.2.222'])
}
