#!/usr/bin/env node
/**
 * @module Where one change's way to a BIND secondary goes (not part of `pnpm bench`; the transfers
 * section's row 2 measured step by step): one zone of `size` records seeded straight into D1, served
 * through the DNS front to a BIND secondary (bench/lib/named-xfr.mjs, the bench's settings), then
 * `changes` one-record creates through the API, each once the previous one is answered. named talks
 * to the front through a recording proxy (UDP and TCP, loopback), so every query it sends (the SOA
 * check, the IXFR) is timed where it leaves named and where its answer comes back, beside the
 * timestamps of named's own log (debug level `NAMED_DEBUG`, default 3) and the API's commit time.
 *
 *   pnpm exec node bench/tools/ixfr-latency.mjs [size=200000] [changes=20]
 *
 * Prints each change's phases and their medians (ms):
 *   notify    commit → named logs the NOTIFY
 *   toSoa     NOTIFY logged → named's SOA query reaches the front
 *   soa       the SOA query's round trip through the front (relayed to the API)
 *   toIxfr    SOA answer back at named → its IXFR query reaches the front (TCP set-up included)
 *   ixfrFirst IXFR query → first octet of the answer back from the front
 *   ixfrRest  first → last octet of the answer
 *   toDone    last octet → named logs "Transfer completed"
 *   answer    "Transfer completed" → the secondary answers the new record
 *   total     commit → the secondary answers (the bench's row 2)
 * named stamps its log lines with its event loop's time, a few milliseconds coarse: a phase between
 * a log line and the proxy is as good as that (toDone can come out slightly negative). After the
 * changes, the same signed SOA check is timed alone (dig through the proxy). NAMED_LOG=1 prints the
 * end of named's log; NAMED_LOG_OUT=file writes all of it. PROFILE=1 also profiles the API isolate (workerd's inspector; the zone builder runs there too)
 * over the timed changes and prints the functions with the most self time; PROFILE_OUT=file also
 * writes that profile with each change's marks (epoch ms: commit, NOTIFY, SOA, IXFR, answered). API_BINDINGS (a JSON
 * object) overrides the API worker's variables, to compare a setting's variants.
 *
 * PRIMARY=bind times the section's BIND → BIND row the same way: a BIND primary of the same records
 * (a zone file; the bench's primary settings) behind the proxy, each change an `nsupdate` on it
 * timed from the process's exit (so `notify` can come out negative), no API and no profile.
 * SECONDARY_OPTIONS and PRIMARY_OPTIONS (named options, `;`-separated; empty for none) replace
 * the bench's own for the secondary and the BIND primary, e.g. SECONDARY_OPTIONS= PRIMARY_OPTIONS=
 * for named's defaults.
 */
import { execFile } from 'node:child_process'
import dgram from 'node:dgram'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
import { aRecord, apiClient } from '../lib/api.mjs'
import { printSelfTimes } from '../lib/cpu-profile.mjs'
import { growSeededZone, seedInD1 } from '../lib/d1-zone-seed.mjs'
import { inspectWorker } from '../lib/inspector.mjs'
import {
  XFR_KEY,
  nsupdateAdd,
  pollNamed,
  startPrimary,
  startSecondary,
  waitTransfer,
} from '../lib/named-xfr.mjs'
import { waitQuiet } from '../lib/propagation.mjs'
import { startBenchStack } from '../lib/stack.mjs'
import { helpIfAsked } from '../lib/tool-help.mjs'
import { summarize } from '../lib/stats.mjs'
import { enableOutgoing, makePeer } from '../lib/transfer-settings.mjs'
import { freePort, sleep } from '../peers/proc.mjs'
import { writeZoneFile } from '../peers/zonefile.mjs'

helpIfAsked(import.meta.url)

const run = promisify(execFile)
const size = Number(process.argv[2] ?? 200_000)
const changes = Number(process.argv[3] ?? 20)
const debug = Number(process.env.NAMED_DEBUG ?? 3)
const PARENT = 'ixfr.bench'
const log = (m) => console.log(`[ixfr] ${m}`)
/** Epoch milliseconds now, fractional (performance.now() moved onto the wall clock, per change). */
let toEpoch = Date.now() - performance.now()
const epochNow = () => performance.now() + toEpoch

/** The QTYPE of a DNS message's first question (after the 12-octet header and the name). */
function qtype(msg) {
  let i = 12
  while (i < msg.length && msg[i] !== 0) i += msg[i] + 1
  return msg.length >= i + 3 ? msg.readUInt16BE(i + 1) : -1
}
const TYPE_NAMES = { 6: 'SOA', 251: 'IXFR', 252: 'AXFR' }

/**
 * A UDP and TCP proxy on a free loopback port in front of `target` (the front's port) recording,
 * per query, { proto, type, at (query in), first (first answer octet back), last (last octet) }.
 */
async function recordingProxy(target) {
  const events = []
  const port = await freePort()
  const udp = dgram.createSocket('udp4')
  udp.on('message', (msg, peer) => {
    const ev = { proto: 'udp', type: TYPE_NAMES[qtype(msg)] ?? qtype(msg), at: epochNow() }
    events.push(ev)
    const out = dgram.createSocket('udp4')
    const timer = setTimeout(() => out.close(), 10_000).unref()
    out.on('message', (reply) => {
      ev.first = ev.last = epochNow()
      udp.send(reply, peer.port, peer.address)
      clearTimeout(timer)
      out.close()
    })
    out.send(msg, target, '127.0.0.1')
  })
  await new Promise((r) => udp.bind(port, '127.0.0.1', r))
  const tcp = net.createServer({ noDelay: true }, (client) => {
    const upstream = net.connect({ port: target, host: '127.0.0.1', noDelay: true })
    let pending = Buffer.alloc(0)
    let current = null
    client.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const msg = pending.subarray(2, 2 + pending.readUInt16BE(0))
        current = { proto: 'tcp', type: TYPE_NAMES[qtype(msg)] ?? qtype(msg), at: epochNow() }
        events.push(current)
        pending = pending.subarray(2 + msg.length)
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk) => {
      if (current) {
        current.first ??= epochNow()
        current.last = epochNow()
      }
      client.write(chunk)
    })
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('close', end).on('error', end)
    upstream.on('close', end).on('error', end)
  })
  await new Promise((r) => tcp.listen(port, '127.0.0.1', r))
  return {
    port,
    events,
    close() {
      udp.close()
      tcp.close()
    },
  }
}

/** Epoch ms of a named log line's timestamp ("27-Nov-2026 02:03:04.567", local time). */
const namedTime = (line) => Date.parse(line.slice(0, 24).replace(/-/g, ' '))

/**
 * The zone of `size` records, straight into D1 (bench/lib/d1-zone-seed.mjs): zone 0 of the seed
 * (one record), grown to `size`.
 */
async function seedZone(stack, accountId) {
  const t0 = performance.now()
  await seedInD1(stack.db, stack.db, accountId, 0, 1, () => {}, { parent: PARENT })
  const added = await growSeededZone(stack.db, 0, size, log, { parent: PARENT })
  log(
    `seeded ${(added + 1).toLocaleString('en-US')} records in ${((performance.now() - t0) / 1000).toFixed(1)} s`
  )
  return { id: `b${'0'.repeat(31)}`, name: `z0.${PARENT}` }
}

const INSPECTOR_PORT = 9243
/** PRIMARY=bind: a BIND primary of the same records instead of ours (the section's BIND → BIND row). */
const bindPrimary = process.env.PRIMARY === 'bind'
const profile = Boolean(process.env.PROFILE) && !bindPrimary
/** named's options from `SECONDARY_OPTIONS` or `PRIMARY_OPTIONS` (`;`-separated, '' for none), else the bench's. */
const optionsFrom = (value) =>
  value
    ?.split(';')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => `${o};`)
const secondaryOptions = optionsFrom(process.env.SECONDARY_OPTIONS)
const primaryOptions = optionsFrom(process.env.PRIMARY_OPTIONS)
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-ixfr-'))
const stopping = []

/** The BIND secondary of `zone` on `port`, its primary behind `proxy`; resolves after its AXFR. */
async function secondaryOf(zone, proxy, port) {
  const named = await startSecondary({
    dir: path.join(dir, 'secondary'),
    zone,
    primaryPort: proxy.port,
    port,
    debug,
    ...(secondaryOptions ? { options: secondaryOptions } : {}),
  })
  stopping.push({ close: () => named.stop() })
  const first = await waitTransfer(named, zone)
  log(`AXFR: ${first.records.toLocaleString('en-US')} records in ${first.seconds} s (named)`)
  return named
}

/**
 * Ours: the bench stack, the zone seeded into D1, the DNS front behind the proxy, outgoing
 * transfers to the secondary; a change is a create through the API, timed from its commit.
 */
async function oursSetup() {
  const stack = await startBenchStack({
    ...(profile ? { inspectorPort: INSPECTOR_PORT } : {}),
    // API_BINDINGS: the API worker's variables overridden for a variant (JSON object).
    apiBindings: JSON.parse(process.env.API_BINDINGS ?? '{}'),
  })
  stopping.push(stack)
  const api = apiClient(stack.url, stack.token)
  const [account] = (await api.call('GET', '/accounts')).result
  const zone = await seedZone(stack, account.id)
  const front = await startDnsFront({ target: stack.url, transfer: { token: stack.token } })
  stopping.push({ close: async () => front.close() })
  const proxy = await recordingProxy(front.port)
  stopping.push({ close: async () => proxy.close() })

  const secondaryPort = await freePort()
  const peer = await makePeer(api, account.id, {
    name: 'bind-secondary',
    port: secondaryPort,
    key: XFR_KEY,
  })
  await enableOutgoing(api, zone, peer)
  const named = await secondaryOf(zone.name, proxy, secondaryPort)
  // A first change, untimed: the seed wrote nothing to KV, so the builder's first step builds the
  // whole zone (as the bench's zone was built by its seed) before it sends NOTIFY.
  const warm = aRecord('warm', 0)
  await api.call('POST', `/zones/${zone.id}/dns_records`, warm)
  await pollNamed(named.port, `${warm.name}.${zone.name}`, warm.content, 1_800_000)
  const quietMs = await waitQuiet(stack, { zone }, log, { timeoutMs: 1_800_000 })
  log(`first change answered; builder quiet ${(quietMs / 1000).toFixed(1)} s later`)
  return {
    zone: zone.name,
    named,
    proxy,
    async change(rec) {
      const { headers } = await api.call('POST', `/zones/${zone.id}/dns_records`, rec)
      return Number(headers.get('x-edgedns-committed-at'))
    },
  }
}

/**
 * BIND → BIND: a BIND primary of the same records (a zone file, NOTIFY to the secondary, the
 * bench's primary settings) behind the proxy; a change is an `nsupdate` on it, timed from its
 * acknowledgement (the process's exit, as the section times it).
 */
async function bindSetup() {
  const zone = `z0.${PARENT}`
  const file = path.join(dir, `${zone}.zone`)
  await writeZoneFile(file, zone, size)
  const secondaryPort = await freePort()
  const primary = await startPrimary({
    dir: path.join(dir, 'primary'),
    zone,
    file,
    notifyPort: secondaryPort,
    ...(primaryOptions ? { options: primaryOptions } : {}),
  })
  stopping.push({ close: () => primary.stop() })
  log(`BIND primary loaded ${size.toLocaleString('en-US')} records`)
  const proxy = await recordingProxy(primary.port)
  stopping.push({ close: async () => proxy.close() })
  const named = await secondaryOf(zone, proxy, secondaryPort)
  return {
    zone,
    named,
    proxy,
    async change(rec) {
      await nsupdateAdd(primary.port, zone, `${rec.name}.${zone}`, rec.content)
      return epochNow()
    },
  }
}

try {
  const { zone, named, proxy, change } = bindPrimary ? await bindSetup() : await oursSetup()
  await sleep(1000)

  const cdp = profile ? await inspectWorker(INSPECTOR_PORT, 'edgedns-api') : null
  if (cdp) {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 })
    await cdp.send('Profiler.start')
  }
  // The profile's start on the wall clock (its own timestamps are a monotonic clock's).
  const profiledFrom = Date.now()
  const KEYS = [
    'notify',
    'toSoa',
    'soa',
    'toIxfr',
    'ixfrFirst',
    'ixfrRest',
    'toDone',
    'answer',
    'total',
  ]
  const rows = []
  const marks = []
  const tag = Date.now().toString(36)
  console.log(KEYS.join('\t'))
  for (let j = 0; j < changes; j++) {
    toEpoch = Date.now() - performance.now()
    const fromLog = named.log().length
    const fromEv = proxy.events.length
    const rec = aRecord(`chg-${tag}`, j)
    const commit = await change(rec)
    const seen = (await pollNamed(named.port, `${rec.name}.${zone}`, rec.content, 30_000)) + toEpoch
    // named writes its log line by line; a moment for the last lines.
    await sleep(300)
    const lines = named.log().slice(fromLog).split('\n')
    const at = (re) => namedTime(lines.find((l) => re.test(l)) ?? '')
    const notified = at(/notify from /)
    const done = at(/Transfer completed/)
    const evs = proxy.events.slice(fromEv)
    const soa = evs.find((e) => e.type === 'SOA' && e.at >= notified - 1) ?? {}
    const ixfr = evs.find((e) => e.type === 'IXFR' || e.type === 'AXFR') ?? {}
    if (ixfr.type === 'AXFR') log(`change ${j}: named asked for an AXFR`)
    const row = {
      notify: notified - commit,
      toSoa: soa.at - notified,
      soa: soa.last - soa.at,
      toIxfr: ixfr.at - soa.last,
      ixfrFirst: ixfr.first - ixfr.at,
      ixfrRest: ixfr.last - ixfr.first,
      toDone: done - ixfr.last,
      answer: seen - done,
      total: seen - commit,
    }
    rows.push(row)
    marks.push({ commit, notified, soaAt: soa.at, soaLast: soa.last, ixfrAt: ixfr.at, seen })
    console.log(KEYS.map((k) => (Number.isFinite(row[k]) ? row[k].toFixed(1) : '-')).join('\t'))
  }
  if (cdp) {
    const { profile: p } = await cdp.send('Profiler.stop')
    cdp.close()
    if (process.env.PROFILE_OUT) {
      writeFileSync(process.env.PROFILE_OUT, JSON.stringify({ profile: p, profiledFrom, marks }))
      log(`profile and each change's epoch marks written to ${process.env.PROFILE_OUT}`)
    }
    console.log('-- API isolate over the timed changes: self time')
    printSelfTimes(p, 30)
  }
  const medians = Object.fromEntries(
    KEYS.map((k) => {
      const v = rows.map((r) => r[k]).filter(Number.isFinite)
      return [k, v.length ? Number(summarize(v).median.toFixed(1)) : null]
    })
  )
  log(
    `${size.toLocaleString('en-US')} records, ${changes} changes, medians (ms): ${JSON.stringify(medians)}`
  )
  // The same signed SOA check with nothing else going on: what the relay costs alone.
  const idle = []
  for (let i = 0; i < 20; i++) {
    const { stdout } = await run('dig', [
      '-y',
      `hmac-sha256:${XFR_KEY.name}:${XFR_KEY.secret}`,
      '@127.0.0.1',
      '-p',
      String(proxy.port),
      '+tries=1',
      zone,
      'SOA',
    ])
    const ms = /Query time: (\d+) msec/.exec(stdout)
    if (ms) idle.push(Number(ms[1]))
  }
  if (idle.length)
    log(`signed SOA check alone (dig, through the front): ${summarize(idle).median} ms median`)
  if (process.env.NAMED_LOG) console.log(named.log().slice(-20_000))
  if (process.env.NAMED_LOG_OUT) writeFileSync(process.env.NAMED_LOG_OUT, named.log())
} finally {
  for (const s of stopping.reverse()) await s.close().catch(() => {})
  rmSync(dir, { recursive: true, force: true })
}
