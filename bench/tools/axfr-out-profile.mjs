#!/usr/bin/env node
/**
 * @module Where an outgoing AXFR's time goes (not part of `pnpm bench`): one zone of `size` A
 * records (the transfers section's shape, `base-<i>`), written straight into D1, with outgoing
 * transfers enabled to a TSIG peer; then the same AXFR timed three ways, each `reps` times:
 * straight from the API's transfer relay (`POST /client/v4/dns_transfer`, read to its end: the
 * relay's own cost, with the size and count of the HTTP chunks it streams), through the DNS front
 * with kdig, and through the front into a BIND secondary (the bench row itself), beside a BIND
 * primary → BIND secondary of the same number of records in the same run. Each with the CPU time
 * it took (from /proc: workerd, the front's process, named), which a busy machine distorts less
 * than the wall times. Last, a CPU profile of the API isolate during one more relay read: its
 * JavaScript and garbage-collector time (the rest of the runtime's CPU is local D1's and the
 * HTTP stream's), and the functions with the most self time.
 *
 *   node bench/tools/axfr-out-profile.mjs [size=200000] [reps=2]
 *
 * PROFILE_OUT writes the raw profile (`.cpuprofile`); NO_PROFILE=1 skips it; PROFILE_D1=1 also
 * profiles local D1's isolate (Miniflare's `d1:db`, which runs the page queries and writes their
 * JSON) during the same read; NO_BIND=1 skips the BIND secondary; NO_KDIG=1 skips kdig; SEED_API=1
 * seeds the zone as `pnpm bench` does (through the API, then built into KV) instead of straight
 * into D1. COLD=1 makes a change before each relay read (each is its version's first, read from
 * D1); TRANSFER_CACHE_MB sets the API's budget of packed answers (0: none kept).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { startDnsFront } from '../../scripts/lib/dns-front.mjs'
import { apiClient } from '../lib/api.mjs'
import { createBenchZone } from '../lib/fixtures.mjs'
import { waitQuiet } from '../lib/propagation.mjs'
import { printSelfTimes } from '../lib/cpu-profile.mjs'
import { cpuOf, inspectWorker } from '../lib/inspector.mjs'
import { XFR_KEY, startPrimary, startSecondary, waitTransfer } from '../lib/named-xfr.mjs'
import { cpuDuring } from '../lib/procs.mjs'
import { startBenchStack } from '../lib/stack.mjs'
import { helpIfAsked } from '../lib/tool-help.mjs'
import { relaySender } from '../lib/transfer-relay.mjs'
import { enableOutgoing, makePeer } from '../lib/transfer-settings.mjs'
import { freePort } from '../peers/proc.mjs'
import { writeZoneFile } from '../peers/zonefile.mjs'

helpIfAsked(import.meta.url)

const size = Number(process.argv[2] ?? 200_000)
const reps = Number(process.argv[3] ?? 2)
const ZONE = 'xfr-out.profile.example'
const INSPECTOR_PORT = 9241
const log = (m) => console.log(`[axfr-out] ${m}`)
const run = promisify(execFile)
const per1k = (ms) => ((1000 * ms) / size).toFixed(2)
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** CPU times of `cpuDuring`: this process's own is the DNS front's (and the tool's). */
const cpuText = ({ runtime, own, other }) =>
  `CPU: runtime ${runtime} ms, front ${own.toFixed(0)} ms${other ? `, named ${other} ms` : ''}`

/** `n` A records `base-<i>` of the zone, written in one statement per 50,000. */
async function seedRecords(db, zoneId, n) {
  const now = new Date().toISOString()
  const rev = ZONE.split('.').reverse().join('.')
  for (let lo = 0; lo < n; lo += 50_000) {
    const hi = Math.min(n, lo + 50_000)
    await db
      .prepare(
        `WITH RECURSIVE i(n) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?2)
         INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, ttl, created_on, modified_on)
         SELECT printf('p%031x', n), ?3, 'base-' || n || '.${ZONE}', '${rev}.base-' || n, 'A',
           '10.' || ((n >> 16) & 255) || '.' || ((n >> 8) & 255) || '.' || (n & 255), 300, ?4, ?4 FROM i`
      )
      .bind(lo, hi, zoneId, now)
      .run()
  }
}

const stack = await startBenchStack({
  inspectorPort: process.env.NO_PROFILE ? undefined : INSPECTOR_PORT,
  ...(process.env.TRANSFER_CACHE_MB === undefined
    ? {}
    : { apiBindings: { TRANSFER_CACHE_MB: process.env.TRANSFER_CACHE_MB } }),
})
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-axfr-out-'))
const stopping = []
try {
  const api = apiClient(stack.url, stack.token)
  const t0 = performance.now()
  let zone
  if (process.env.SEED_API) {
    // As `pnpm bench` seeds its zone: through the API, built into KV, the builder quiet.
    zone = await createBenchZone({ api, log }, ZONE, size)
    await waitQuiet(stack, { zone }, log, { timeoutMs: 600_000 })
  } else {
    zone = await api.createZone(ZONE)
    await seedRecords(stack.db, zone.id, size)
  }
  log(
    `${size.toLocaleString('en-US')} records in D1 in ${((performance.now() - t0) / 1000).toFixed(1)} s`
  )
  const [account] = (await api.call('GET', '/accounts')).result
  const secondaryPort = await freePort()
  const peer = await makePeer(api, account.id, {
    name: 'secondary',
    port: secondaryPort,
    key: XFR_KEY,
  })
  await enableOutgoing(api, { id: zone.id, name: ZONE }, peer)

  const send = relaySender(stack, XFR_KEY)

  let changes = 0
  /** One AXFR straight from the relay, read to its end: ms, bytes, chunks, messages. */
  async function relayRead() {
    // COLD=1: a change first, so the read is the zone version's first (no packed answer to reuse).
    if (process.env.COLD)
      await api.call('POST', `/zones/${zone.id}/dns_records`, {
        type: 'A',
        name: `cold-${changes++}`,
        content: '192.0.2.1',
      })
    const { sentAt: t, body } = await send({ zone: ZONE, kind: 'AXFR' })
    let bytes = 0
    let chunks = 0
    let firstMs = NaN
    for await (const chunk of body) {
      if (chunks === 0) firstMs = performance.now() - t
      bytes += chunk.length
      chunks++
    }
    return { ms: performance.now() - t, firstMs, bytes, chunks }
  }

  // Warm the isolate and D1's pages.
  await relayRead()
  const relayRuns = []
  const relayCpu = []
  for (let r = 0; r < reps; r++) {
    const { result: x, cpu } = await cpuDuring(relayRead)
    relayRuns.push(x.ms)
    relayCpu.push(cpu.runtime)
    log(
      `relay: ${x.ms.toFixed(0)} ms (${per1k(x.ms)} ms per 1k records; ${cpuText(cpu)}), first chunk after ${x.firstMs.toFixed(0)} ms, ${x.bytes.toLocaleString('en-US')} bytes in ${x.chunks} chunks of ${Math.round(x.bytes / x.chunks).toLocaleString('en-US')} bytes on average`
    )
  }

  const front = await startDnsFront({ target: stack.url, transfer: { token: stack.token } })
  stopping.push({ stop: async () => front.close() })
  const kdigRuns = []
  for (let r = 0; r < (process.env.NO_KDIG ? 0 : reps); r++) {
    const t = performance.now()
    const {
      result: { stdout },
      cpu,
    } = await cpuDuring(() =>
      run(
        'kdig',
        [
          `@127.0.0.1`,
          '-p',
          String(front.port),
          '-y',
          `hmac-sha256:${XFR_KEY.name}:${XFR_KEY.secret}`,
          ZONE,
          'AXFR',
          '+noall',
          '+stats',
        ],
        { maxBuffer: 1 << 26 }
      )
    )
    const ms = performance.now() - t
    kdigRuns.push(ms)
    const stats = /Received[^\n]*/.exec(stdout)?.[0] ?? stdout.trim().split('\n').at(-1)
    log(
      `front + kdig: ${ms.toFixed(0)} ms (${per1k(ms)} ms per 1k records; ${cpuText(cpu)}); kdig: ${stats}`
    )
  }

  const bindRuns = []
  if (!process.env.NO_BIND) {
    let named = null
    for (let r = 0; r < reps; r++) {
      await named?.stop()
      const { result: done, cpu } = await cpuDuring(async (watch) => {
        named = await startSecondary({
          dir: path.join(dir, `secondary-${r}`),
          zone: ZONE,
          primaryPort: front.port,
          port: secondaryPort,
        })
        watch(named.proc.child.pid)
        return waitTransfer(named, ZONE)
      })
      const ms = done.atMs - named.startedAt
      bindRuns.push(ms)
      log(
        `front → BIND secondary: ${ms.toFixed(0)} ms from named's start (${per1k(ms)} ms per 1k records; named: ${done.seconds} s, ${done.messages} messages, ${done.records} records; ${cpuText(cpu)})`
      )
    }
    stopping.push(named)
  }

  const bindToBind = []
  if (!process.env.NO_BIND) {
    // The same records served by a BIND primary to a BIND secondary, in the same run.
    const BIND_ZONE = 'bind.profile.example'
    const file = path.join(dir, `${BIND_ZONE}.zone`)
    await writeZoneFile(file, BIND_ZONE, size)
    const primary = await startPrimary({ dir: path.join(dir, 'primary'), zone: BIND_ZONE, file })
    stopping.push(primary)
    let named = null
    for (let r = 0; r < reps; r++) {
      await named?.stop()
      const { result: done, cpu } = await cpuDuring(async (watch) => {
        watch(primary.proc.child.pid)
        named = await startSecondary({
          dir: path.join(dir, `bind-secondary-${r}`),
          zone: BIND_ZONE,
          primaryPort: primary.port,
        })
        watch(named.proc.child.pid)
        return waitTransfer(named, BIND_ZONE)
      })
      const ms = done.atMs - named.startedAt
      bindToBind.push(ms)
      log(
        `BIND primary → BIND secondary: ${ms.toFixed(0)} ms from named's start (${per1k(ms)} ms per 1k records; named: ${done.seconds} s, ${done.messages} messages, ${done.records} records; CPU of both named ${cpu.other} ms)`
      )
    }
    stopping.push(named)
  }

  log(
    `medians: relay ${median(relayRuns).toFixed(0)} ms (runtime CPU ${median(relayCpu)} ms, ${per1k(median(relayCpu))} ms per 1k records), front + kdig ${kdigRuns.length ? median(kdigRuns).toFixed(0) : '-'} ms${bindRuns.length ? `, front → BIND ${median(bindRuns).toFixed(0)} ms, BIND → BIND ${median(bindToBind).toFixed(0)} ms` : ''}`
  )

  if (!process.env.NO_PROFILE) {
    const workers = ['edgedns-api', ...(process.env.PROFILE_D1 ? ['d1:db'] : [])]
    const sessions = []
    for (const worker of workers) {
      const cdp = await inspectWorker(INSPECTOR_PORT, worker)
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
      sessions.push(cdp)
    }
    for (const cdp of sessions) await cdp.send('Profiler.start')
    const x = await relayRead()
    log(`profiled relay read: ${x.ms.toFixed(0)} ms`)
    for (const [i, cdp] of sessions.entries()) {
      const { profile } = await cdp.send('Profiler.stop')
      cdp.close()
      const { jsMs, gcMs } = cpuOf(profile)
      log(
        `the ${workers[i]} isolate: JavaScript ${jsMs.toFixed(0)} ms, garbage collector ${gcMs.toFixed(0)} ms`
      )
      if (process.env.PROFILE_OUT && i === 0)
        writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile))
      printSelfTimes(profile, i === 0 ? 30 : 15)
    }
  }
} finally {
  for (const p of stopping.reverse()) await p.stop().catch(() => {})
  await stack.close()
  rmSync(dir, { recursive: true, force: true })
}
