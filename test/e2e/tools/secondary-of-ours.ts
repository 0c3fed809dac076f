/**
 * Another server as the secondary of one of our zones (Knot DNS, NSD): a zone of every record type
 * made through the API, a peer at the server's address and port with a TSIG key and outgoing
 * transfers enabled to it; the server pulls the zone through the local DNS front and the API's
 * relay, then a change the builder announces by NOTIFY. Each time what the server serves (an AXFR
 * from it) equals our export in `named-checkzone -D` canonical form. Skipped, saying so, without
 * the server's binary.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../../scripts/lib/stack.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { startDnsFront } from '../../../scripts/lib/dns-front.mjs'
import { EVERY_TYPE_RECORDS } from '../../api/import-export-fixture.ts'
import { createEveryTypeZone } from './every-type-zone.ts'
import { cleanUp, waitFor } from './processes.ts'
import { stackApi } from './stack-api.ts'
import { enableOutgoing, makePeer } from './transfer-settings.ts'
import { canonicalZone, exportZoneFile } from './zone-files.ts'

/** What the server's configuration is made from. */
export interface SecondarySetup {
  dir: string
  zone: string
  /** The port the server listens on (and serves the zone's AXFR to the test from). */
  port: number
  /** The DNS front's port: the server's primary, and where NOTIFY comes from. */
  frontPort: number
  keyName: string
  secret: string
}

export interface SecondaryServer {
  /** The server's name in the test's title. */
  title: string
  /** Its binary, undefined when not installed (the tests are skipped). */
  binary: string | undefined
  /** A prefix of the zone's name and of the TSIG key's. */
  tag: string
  /** Base64 secret of the TSIG key (hmac-sha256). */
  secret: string
  /**
   * Types the server does not serve from a zone it transferred, left out of our side of the
   * comparison (PowerDNS serves DNSKEY only from its own key store).
   */
  notServed?: string[]
  /** Writes the server's configuration into `setup.dir`; its command-line arguments. */
  configure(setup: SecondarySetup): string[]
  /**
   * Checks on the server's log once it has followed a change (that it was NOTIFYed, and took an
   * IXFR): `since`, its log from the change on; `all`, the whole log.
   */
  followedChange(log: { since: () => string; all: () => string }): Promise<void>
  /**
   * Another zone than the every-type one: its zone file (for zone `name`) and the records it
   * imports; then, after the first change, `moreChanges` are made and followed one by one.
   */
  zone?: {
    file: (name: string) => string
    records: number
    moreChanges?: Array<(at: { zone: string; zoneId: string }) => Promise<void>>
  }
}

/** The tests of `server` as the secondary of one of our zones. */
export function describeSecondaryOfOurs(server: SecondaryServer): void {
  const zone = `${server.tag}-${Date.now().toString(36)}.example`
  let dir = ''
  const run = promisify(execFile)
  let front: { port: number; close(): void }
  let child: ChildProcess | undefined
  let log = ''
  let port = 0
  let zoneId = ''

  const canonical = (file: string): string[] => canonicalZone(zone, file)
  const notServed = new RegExp(`\\sIN (${(server.notServed ?? []).join('|') || '-'})\\t`)
  const exported = async (): Promise<string[]> =>
    canonical(await exportZoneFile(zoneId, path.join(dir, 'export.zone'))).filter(
      (line) => !notServed.test(line)
    )

  /** What the server serves, by AXFR from it, canonical; [] while it has nothing. */
  async function served(): Promise<string[]> {
    const out = await run('dig', ['-p', String(port), '@127.0.0.1', zone, 'AXFR']).then(
      (r) => r.stdout,
      () => ''
    )
    if (!/XFR size/.test(out)) return []
    const file = path.join(dir, 'served.zone')
    writeFileSync(file, out)
    return canonical(file)
  }

  /** Whether the server comes to serve exactly our export within `ms`. */
  async function servesOurs(ms: number): Promise<boolean> {
    const ours = await exported()
    return waitFor(
      async () => {
        const held = await served()
        return held.length === ours.length && held.every((l, i) => l === ours[i])
      },
      ms,
      200
    )
  }

  describe.skipIf(!server.binary)(`${server.title} as a secondary of our zone`, () => {
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), `edgedns-${server.tag}-`))
      front = await startDnsFront({
        target: inject('stackBase'),
        transfer: { token: inject('stackToken') },
      })
      const made = await createEveryTypeZone(zone, server.zone?.file(zone))
      zoneId = made.zoneId
      expect(made.imported.recsAdded).toBe(server.zone?.records ?? EVERY_TYPE_RECORDS)
      port = await freePort()
      const keyName = `${server.tag}-key`
      const peer = await makePeer({
        accountId: made.accountId,
        name: server.tag,
        ip: '127.0.0.1',
        port,
        ixfr: true,
        tsig: { name: keyName, secret: server.secret },
      })
      await enableOutgoing(zoneId, zone, [peer])
      const args = server.configure({
        dir,
        zone,
        port,
        frontPort: front.port,
        keyName,
        secret: server.secret,
      })
      child = spawn(server.binary!, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      child.stderr?.on('data', (c) => (log += String(c)))
      child.stdout?.on('data', (c) => (log += String(c)))
    }, 90_000)

    afterAll(() => cleanUp({ child: child, front, dir }))

    it('transfers the zone and serves exactly our export', async () => {
      expect(await servesOurs(30_000), log).toBe(true)
    })

    it('follows a change announced by NOTIFY and serves our export again', async () => {
      const from = log.length
      await stackApi('POST', `/zones/${zoneId}/dns_records`, {
        type: 'TXT',
        name: `notified.${zone}`,
        content: '"after the first transfer"',
        ttl: 300,
      })
      expect(await servesOurs(30_000), log).toBe(true)
      await server.followedChange({ since: () => log.slice(from), all: () => log })
    })

    it.skipIf(!server.zone?.moreChanges)('follows every further change', async () => {
      for (const change of server.zone!.moreChanges!) {
        await change({ zone, zoneId })
        expect(await servesOurs(30_000), log).toBe(true)
      }
    })
  })
}
