/**
 * @module Peers section (`--peers`): BIND 9.18 and PowerDNS Authoritative 4.7 (+ dnsdist for DoH)
 * on the same machine, loaded with the same zones, queried with the same DoH mixes and load
 * plan, with the same kinds of change timed from submit to visible (nsupdate / PATCH; ours is
 * the batch API, measured in the propagation section). Installs nothing: missing packages skip it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { loadPlan, measureTarget, probeMix, warmUp, wirePaths } from '../lib/dohload.mjs'
import { largeSize, MIXES, SMALL, zoneName } from '../lib/fixtures.mjs'
import { summarize } from '../lib/stats.mjs'
import { nsupdate, startBind, waitAnswer as bindWait } from './bind.mjs'
import { createDb, replaceA, startPdns, waitAnswer as pdnsWait } from './pdns.mjs'
import { have } from './proc.mjs'
import { writeZoneFile, writeZoneSql } from './zonefile.mjs'

const PACKAGES = {
  named: 'bind9',
  nsupdate: 'bind9-dnsutils',
  pdns_server: 'pdns-server',
  dnsdist: 'dnsdist',
  sqlite3: 'sqlite3',
}
const BULK = 10_000

function adds(zone, prefix, n) {
  return Array.from({ length: n }, (_, i) => ({
    name: `${prefix}-${i}.${zone}`,
    content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  }))
}

/**
 * The common measurement flow of a peer. `peer` = { start(zones) → server, load(server, zone, mix),
 * change(server, zone, adds) → resolves when submitted and applied, wait(server, name) → ms }.
 */
async function benchPeer(peer, { quick, log, zones }) {
  const reps = quick ? 1 : 3
  const out = { name: peer.name, startup: {}, rows: [], changes: {} }
  // Start-to-first-answer: a server with only the small zone, then one with both (kept running).
  const small = []
  for (let r = 0; r < reps; r++) {
    const s = await peer.start([zones.small], `base-7.${zones.small.name}`)
    small.push(s.startMs)
    await s.stop()
  }
  out.startup.small = summarize(small)
  const large = []
  let server = null
  for (let r = 0; r < reps; r++) {
    server = await peer.start(
      [zones.small, zones.large],
      `base-${zones.large.size - 3}.${zones.large.name}`
    )
    large.push(server.startMs)
    if (r < reps - 1) await server.stop()
  }
  out.startup.large = summarize(large)
  log(
    `peers: ${peer.name} first answer ${out.startup.small.median.toFixed(0)} ms (1,000 records) / ${out.startup.large.median.toFixed(0)} ms (${zones.large.size.toLocaleString('en-US')}) after process start`
  )
  try {
    const plan = loadPlan(quick)
    for (const kind of ['small', 'large']) {
      const z = zones[kind]
      await warmUp({
        url: server.origin,
        paths: wirePaths(z.name, z.size, 'existing'),
        h2: peer.h2,
      })
      for (const mix of MIXES) {
        await probeMix(server.origin, z.name, z.size, mix, { h2Fetch: server.client?.get })
        const m = await measureTarget({
          url: server.origin,
          paths: wirePaths(z.name, z.size, mix),
          h2: peer.h2,
          plan,
        })
        out.rows.push({ zone: kind, size: z.size, mix, ...m })
        log(
          `peers: ${peer.name} ${z.name} ${mix}: ${Math.round(m.sat.rps.median)} q/s, p50 ${m.fixed.p50.median.toFixed(2)} / p99 ${m.fixed.p99.median.toFixed(2)} ms at 1,000/s`
        )
      }
    }
    for (const kind of ['small', 'large']) {
      const z = zones[kind]
      const one = []
      const n = quick ? 10 : 40
      for (let k = 0; k < n + 2; k++) {
        const [a] = adds(z.name, `one${peer.tag}${k}`, 1)
        const t0 = performance.now()
        await peer.change(server, z.name, [a])
        const seen = await peer.wait(server, a.name)
        if (k >= 2) one.push(seen - t0)
      }
      const bulk = { submit: [], applied: [] }
      for (let r = 0; r < (quick ? 1 : 3); r++) {
        const list = adds(z.name, `bulk${peer.tag}${r}`, BULK)
        const t0 = performance.now()
        await peer.change(server, z.name, list)
        const applied = performance.now() - t0
        const seen = await peer.wait(server, list[BULK - 1].name)
        for (const i of [0, 1234, 5000, 8765]) await peer.wait(server, list[i].name)
        bulk.applied.push(applied)
        bulk.submit.push(seen - t0)
      }
      out.changes[kind] = {
        one: summarize(one),
        bulk: { n: BULK, submit: summarize(bulk.submit), applied: summarize(bulk.applied) },
      }
      log(
        `peers: ${peer.name} ${z.name}: one change visible ${out.changes[kind].one.median.toFixed(1)} ms after submit; ${BULK.toLocaleString('en-US')} changes ${out.changes[kind].bulk.submit.median.toFixed(0)} ms`
      )
    }
  } finally {
    await server.stop()
  }
  return out
}

function bindPeer(dir, files) {
  return {
    name: 'BIND 9.18',
    tag: 'b',
    h2: true,
    start: (zs, probe) =>
      startBind({ dir, zones: zs.map((z) => ({ name: z.name, file: files[z.name] })), probe }),
    change: (server, zone, list) => nsupdate(server.dnsPort, zone, list),
    wait: (server, name) => bindWait(server.client, name),
  }
}

function pdnsPeer(dir, sql) {
  let n = 0
  return {
    name: 'PowerDNS 4.7 + dnsdist',
    tag: 'p',
    h2: false,
    async start(zs, probe) {
      const db = path.join(dir, `pdns-${n++}.sqlite3`)
      await createDb(
        db,
        zs.map((z) => sql[z.name])
      )
      return startPdns({ dir, db, probe })
    },
    change: (server, zone, list) => server.patch(zone, replaceA(list)),
    wait: (server, name) => pdnsWait(server.origin, name),
  }
}

export async function runPeersBench({ quick, log }) {
  const missing = Object.entries(PACKAGES)
    .filter(([cmd]) => !have(cmd))
    .map(([, pkg]) => pkg)
  if (missing.length > 0) {
    log(`peers: skipped, missing Debian packages: ${[...new Set(missing)].join(' ')}`)
    return { skipped: `missing Debian packages: ${[...new Set(missing)].join(' ')}` }
  }
  const zones = {
    small: { name: zoneName('small'), size: SMALL },
    large: { name: zoneName('large'), size: largeSize(quick) },
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-peers-'))
  try {
    const files = {}
    const sql = {}
    let id = 1
    for (const z of Object.values(zones)) {
      files[z.name] = path.join(dir, `db.${z.name}`)
      sql[z.name] = path.join(dir, `${z.name}.sql`)
      await writeZoneFile(files[z.name], z.name, z.size)
      await writeZoneSql(sql[z.name], id++, z.name, z.size)
    }
    log(
      `peers: zone files and SQL written (${zones.large.size.toLocaleString('en-US')} + ${zones.small.size.toLocaleString('en-US')} records)`
    )
    const out = { zones: { small: zones.small.size, large: zones.large.size } }
    out.bind = await benchPeer(bindPeer(dir, files), { quick, log, zones })
    out.pdns = await benchPeer(pdnsPeer(dir, sql), { quick, log, zones })
    return out
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
