/**
 * @module BIND 9 `named` for the transfer section: a primary serving a zone file (transfers and
 * updates signed with one TSIG key, NOTIFY to an explicit secondary), a secondary of any primary
 * (ours through the DNS front, or another named), each in its own directory on a free loopback
 * port; a UDP query to either; an update through `nsupdate`.
 */
import { execFile } from 'node:child_process'
import dgram from 'node:dgram'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { decodeMessage } from '../../packages/dns-wire/src/index.ts'
import { namedConf } from '../../scripts/lib/named-conf.mjs'
import { encodeQuery } from './dnswire.mjs'
import { freePort, sleep, startProcess } from '../peers/proc.mjs'

const run = promisify(execFile)

/** The TSIG key every transfer of the section is signed with (hmac-sha256, 32 octets). */
export const XFR_KEY = {
  name: 'bench-xfr',
  secret: Buffer.from('bench-transfer-key-thirty-two-oc').toString('base64'),
}

/** named.conf for one named of the section: `zones` after the common part and the key. */
function conf(dir, port, notify, zones, extra = []) {
  const options = [`notify ${notify};`, 'notify-delay 0;', ...extra]
  return namedConf({ dir, port, options, keys: { [XFR_KEY.name]: XFR_KEY.secret }, zones })
}

/**
 * How many SOA checks (`serial-query-rate`) and NOTIFY messages (`notify-rate`) a second named
 * sends. named sends both through a rate limiter that sends the first at once and starts a ticker
 * whose period is the rate's reciprocal times ten (ten sent a tick; a rate of ten or less: one
 * per tick, period its reciprocal); one asked while the ticker runs waits for its next tick. At
 * named's default of 20, a change less than half a second after the previous one waits up to
 * half a second for its NOTIFY on a BIND primary and again for its SOA check on the secondary,
 * about every other change; at this rate the tick is 10 ms. Both rows of the section run with
 * it: every secondary, and the BIND primary (ours has no such limiter).
 */
const QUERY_RATE = 1000

/** The options of a primary and of a secondary beside the common ones (their defaults). */
export const PRIMARY_OPTIONS = [`notify-rate ${QUERY_RATE};`]
export const SECONDARY_OPTIONS = [`serial-query-rate ${QUERY_RATE};`]

/**
 * Starts named from `conf` in `dir` (debug level `debug`, 0 for none; on the cores `cpus`, a
 * taskset list, when given); resolves once it runs: { port, proc, log(), startedAt, stop }.
 */
async function startNamed(dir, port, conf, debug = 0, cpus = undefined) {
  const file = path.join(dir, 'named.conf')
  writeFileSync(file, conf)
  const startedAt = performance.now()
  const args = ['-g', ...(debug ? ['-d', String(debug)] : []), '-c', file]
  const proc = cpus
    ? startProcess('taskset', ['-c', cpus, 'named', ...args])
    : startProcess('named', args)
  // The whole log, not only startProcess's tail: the transfer lines are searched in it.
  let log = ''
  proc.child.stderr.on('data', (d) => (log += d))
  proc.child.stdout.on('data', (d) => (log += d))
  return { port, proc, log: () => log, startedAt, stop: () => proc.stop() }
}

/**
 * A primary for `zone` from `file`: transfers and updates need the key; NOTIFY goes to
 * `notifyPort` on loopback (a secondary that is started later), and to the `alsoNotify` ports.
 * `options`: further lines of its options block. `updates: false` serves the file as a static
 * zone (no updates, no journal: named answers every IXFR with the whole zone; changed by
 * rewriting the file and reloading, SIGHUP).
 */
export async function startPrimary({
  dir,
  zone,
  file,
  notifyPort,
  alsoNotify = [],
  options = PRIMARY_OPTIONS,
  updates = true,
}) {
  const notified = [notifyPort, ...alsoNotify].filter(Boolean)
  mkdirSync(dir, { recursive: true })
  const port = await freePort()
  const zoneConf = `zone "${zone}" {
  type primary;
  file "${file}";
  allow-transfer { key "${XFR_KEY.name}"; };
  ${updates ? `allow-update { key "${XFR_KEY.name}"; };` : ''}
  ${notified.length ? `also-notify { ${notified.map((p) => `127.0.0.1 port ${p} key "${XFR_KEY.name}";`).join(' ')} };` : ''}
};`
  const named = await startNamed(dir, port, conf(dir, port, 'explicit', zoneConf, options))
  await waitLog(named, new RegExp(`zone ${zone.replace(/\./g, '\\.')}/IN: loaded serial`), 600_000)
  return named
}

/**
 * A secondary of `zone` pulling from 127.0.0.1 port `primaryPort` with the key, on `port` (a free
 * one when not given), its zone file written as text in `dir`. Returns at once (named starts the
 * transfer itself); `transferred()` waits for its log's completion line. `debug` sets named's debug
 * level (its refresh steps, each with a timestamp, from 3 on); `options`, further lines of its
 * options block; `cpus`, the cores it runs on (a taskset list; default any).
 */
export async function startSecondary({
  dir,
  zone,
  primaryPort,
  port,
  debug = 0,
  options = SECONDARY_OPTIONS,
  cpus,
}) {
  mkdirSync(dir, { recursive: true })
  port ??= await freePort()
  const zoneConf = `zone "${zone}" {
  type secondary;
  file "${dir}/${zone}.db";
  masterfile-format text;
  primaries port ${primaryPort} { 127.0.0.1 key "${XFR_KEY.name}"; };
};`
  return startNamed(dir, port, conf(dir, port, 'no', zoneConf, options), debug, cpus)
}

/**
 * Waits for named's line "transfer of '<zone>/IN' from …: Transfer completed: …" after `from`
 * characters of its log; returns { atMs, seconds (named's own transfer time), records, messages }.
 */
export async function waitTransfer(named, zone, { from = 0, timeoutMs = 3_600_000 } = {}) {
  const re = new RegExp(
    `transfer of '${zone.replace(/\./g, '\\.')}/IN' from [^ ]+: Transfer completed: (\\d+) messages, (\\d+) records, \\d+ bytes, ([0-9.]+) secs`
  )
  const m = await waitLog(named, re, timeoutMs, from)
  return { atMs: m.atMs, messages: Number(m[1]), records: Number(m[2]), seconds: Number(m[3]) }
}

/** Waits until named's log (after `from` characters) matches `re`; the match, with `atMs`. */
async function waitLog(named, re, timeoutMs, from = 0) {
  const t0 = performance.now()
  for (;;) {
    const m = re.exec(named.log().slice(from))
    if (m) return Object.assign(m, { atMs: performance.now() })
    if (named.proc.exited()) throw new Error(`named exited:\n${named.log().slice(-2000)}`)
    if (/transfer of .*failed|Transfer status: (?!success)/.test(named.log().slice(from)))
      throw new Error(`named: transfer failed:\n${named.log().slice(-2000)}`)
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`named: ${re} not seen within ${timeoutMs} ms:\n${named.log().slice(-2000)}`)
    await sleep(5)
  }
}

/** One UDP query to named on loopback: the rdata of the answer (empty on NXDOMAIN). */
function udpAnswer(port, name, type = 'A', timeoutMs = 1000) {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4')
    const timer = setTimeout(() => {
      sock.close()
      reject(new Error(`no answer from port ${port} for ${name}`))
    }, timeoutMs)
    sock.on('message', (msg) => {
      clearTimeout(timer)
      sock.close()
      resolve(decodeMessage(new Uint8Array(msg)).answer.map((rr) => rr.data))
    })
    sock.send(encodeQuery(name, type), port, '127.0.0.1')
  })
}

/** Polls named back to back until `name` answers with `content`; performance.now() when it did. */
export async function pollNamed(port, name, content, timeoutMs = 60_000) {
  const t0 = performance.now()
  for (;;) {
    const data = await udpAnswer(port, name).catch(() => [])
    if (data.includes(content)) return performance.now()
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`${name} ${content} not answered by named within ${timeoutMs} ms`)
  }
}

/** A dynamic update on the primary (signed): adds `name` A `content`. Resolves when acknowledged. */
export async function nsupdateAdd(port, zone, name, content) {
  const script = `server 127.0.0.1 ${port}\nzone ${zone}\nupdate add ${name} 300 IN A ${content}\nsend\n`
  await run('sh', [
    '-c',
    `printf '%s' "$0" | nsupdate -y hmac-sha256:${XFR_KEY.name}:${XFR_KEY.secret}`,
    script,
  ])
}
