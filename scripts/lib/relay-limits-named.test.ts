/**
 * A real BIND 9 `named` secondary whose IXFR the DNS front refuses for being past a relay limit
 * (front-tcp.mjs): the front ends the connection without an answer, and named counts a failed
 * attempt (to be tried again at the zone's retry interval) instead of asking AXFR at once on a
 * new connection, which it does after an error code such as SERVFAIL. Skipped without named.
 */
import { execFileSync, type ChildProcess } from 'node:child_process'
import dgram from 'node:dgram'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import packet from 'dns-packet'
import { afterAll, describe, expect, it } from 'vitest'
import { query, tcpAsk } from './dns-client.ts'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { startDnsFront } from './dns-front.mjs'
import { namedConf, spawnNamed } from './named-conf.mjs'
// @ts-expect-error plain ESM module
import { freePort } from './stack.mjs'

const hasNamed = (() => {
  try {
    execFileSync('named', ['-v'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

const ZONE = 'past-limit.test'
const soa = (serial: number) => ({
  name: ZONE,
  type: 'SOA' as const,
  ttl: 300,
  data: {
    mname: 'ns.primary.test',
    rname: 'hostmaster.primary.test',
    serial,
    refresh: 3600,
    retry: 600,
    expire: 1209600,
    minimum: 300,
  },
})

const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean()
})

/** Stops `child` and resolves once it has exited (named writes its files until then), or after 5 s. */
function stopped(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const bound = setTimeout(resolve, 5_000)
    child.once('exit', () => resolve(clearTimeout(bound)))
    child.kill()
  })
}

/** Waits until `check()` holds, or fails after `ms` (a bound for a hang, not a measure). */
async function until(check: () => boolean, ms = 45_000): Promise<void> {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.skipIf(!hasNamed)('a BIND secondary whose IXFR is past a relay limit', () => {
  it('counts a failed attempt and does not ask AXFR at once', { timeout: 60_000 }, async () => {
    // DoH and the API in one stand-in: every query is answered with the zone's SOA at serial 10.
    const transfers: string[] = []
    const api = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const q = packet.decode(Buffer.concat(chunks))
        const answer = packet.encode({
          id: q.id,
          type: 'response',
          flags: packet.AUTHORITATIVE_ANSWER,
          questions: q.questions,
          answers: [soa(10)],
        })
        if (req.url?.endsWith('/dns-query')) {
          res.writeHead(200, { 'content-type': 'application/dns-message' })
          return void res.end(answer)
        }
        transfers.push(q.questions![0]!.type)
        const prefix = Buffer.alloc(2)
        prefix.writeUInt16BE(answer.length)
        res.writeHead(200, { 'content-type': 'application/octet-stream' })
        res.end(Buffer.concat([prefix, answer]))
      })
    })
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r))
    cleanups.push(() => api.close())
    const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
    // One relay a second on a clock that stands still, spent before named asks.
    const refusals: string[] = []
    const front = await startDnsFront({
      target: base,
      transfer: { api: base, token: 'relay-token' },
      relayLimits: { clientRate: 1, now: () => 0 },
      refusals: { intervalMs: 0, log: refusals.push.bind(refusals) },
    })
    cleanups.push(() => front.close())
    await tcpAsk(front.port, query('spent.test', 'AXFR'))
    expect(transfers).toEqual(['AXFR'])

    // named holds the zone at serial 9, with the front as its primary.
    const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-front-limit-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }))
    const zoneFile = path.join(dir, `${ZONE}.db`)
    writeFileSync(
      zoneFile,
      `$TTL 300\n@ 3600 IN SOA ns.primary.test. hostmaster.primary.test. 9 3600 600 1209600 300\n` +
        `@ IN NS ns.primary.test.\n`
    )
    const port = await freePort()
    const zones = `zone "${ZONE}" { type secondary; masterfile-format text; file "${zoneFile}";
  primaries { 127.0.0.1 port ${front.port}; }; };`
    const named = spawnNamed(dir, namedConf({ dir, port, options: ['notify no;'], zones }))
    const child: ChildProcess = named.child
    cleanups.push(() => stopped(child))
    await until(() => /loaded serial 9/.test(named.log()))
    // A NOTIFY from the primary's address has named check the SOA now, not at its own time.
    const notify = query(ZONE, 'SOA')
    notify[2] = (notify[2]! & 0x87) | (4 << 3) | 0x04 // opcode NOTIFY, AA
    const udp = dgram.createSocket('udp4')
    await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()))
    udp.send(notify, port, '127.0.0.1')
    cleanups.push(() => udp.close())

    // The attempt ends with named's transfer status; after an answered SERVFAIL it would first
    // have reset the transfer and asked again (SOA query, then AXFR) on a new connection.
    await until(() => /Transfer status: /.test(named.log()))
    const log = named.log()
    expect(log).toMatch(/Transfer status: end of file/)
    expect(log).not.toMatch(/resetting|retrying with AXFR/)
    expect(refusals).toEqual([
      'dns front: limits refused 1 (DNS_FRONT_RELAY_CLIENT_RATE 1) from 127.0.0.0/24',
    ])
    expect(transfers).toEqual(['AXFR']) // the one spent before
  })
})
