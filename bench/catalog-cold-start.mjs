/**
 * @module `catalog-cold-start`: a BIND 9.18 secondary that knows only an account's catalog zone
 * (RFC 9432), started with an empty directory, until it has transferred every member zone — from
 * us (the catalog and the zones through the DNS front and `/dns_transfer`) and, side by side, from
 * a BIND primary serving the same zones and an equal catalog from files. At several zone counts
 * (`BENCH_CATALOG_ZONES`, comma-separated; default 1,000, 5,000, 10,000; `--quick`: a fifth), so
 * the report says whether the time per zone stays flat (linear growth).
 *
 * The zones are minimal (SOA, the two NS, one A record), written straight into D1 with the rows
 * the API writes (lib/d1-zone-seed.mjs), each with outgoing transfers enabled to the BIND peer
 * (TSIG); each count is an account of its own with its own catalog. Both secondaries run with the
 * same settings: `transfers-in`, `transfers-per-ns` and `serial-query-rate` raised so BIND's own
 * default throttles (2 transfers per primary, 20 SOA queries a second) do not hide the primaries.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
// The DNS front of `pnpm dev`, relaying transfers to the bench stack's API.
import { startDnsFront } from '../scripts/lib/dns-front.mjs'
import { namedConf, spawnNamed } from '../scripts/lib/named-conf.mjs'
import { seedInD1 } from './lib/d1-zone-seed.mjs'
import { enableOutgoingForAccount, makePeer } from './lib/transfer-settings.mjs'
import { freePort, sleep } from './peers/proc.mjs'

const PARENT = 'catz.bench'
const SECRET = 'Y2F0YWxvZy1jb2xkLXN0YXJ0LWJlbmNoLWtleS0zMi1v'
/** Settings both secondaries run with (see the module comment). */
const SECONDARY_TUNING = 'transfers-in 64; transfers-per-ns 64; serial-query-rate 10000;'

/** The zone counts measured. */
export function catalogCounts(quick) {
  const env = process.env.BENCH_CATALOG_ZONES
  if (env)
    return env
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0)
  return [1_000, 5_000, 10_000].map((n) => (quick ? n / 5 : n))
}

const zoneName = (n) => `z${n}.${PARENT}`

/**
 * Starts named with `conf` and resolves when `done(count)` holds for the number of member-zone
 * transfers it logged as completed (or rejects after `timeoutMs`). Returns the time from spawn.
 */
function runSecondary(dir, conf, members, timeoutMs) {
  const file = path.join(dir, 'named.conf')
  writeFileSync(file, conf)
  const t0 = performance.now()
  const child = spawn('named', ['-g', '-c', file], { stdio: ['ignore', 'pipe', 'pipe'] })
  let completed = 0
  let tail = ''
  let log = ''
  const counted = /transfer of 'z\d+\.[^/]+\/IN' from [^ ]+: Transfer completed/
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM')
      reject(
        new Error(
          `BIND secondary: ${completed}/${members} zones after ${timeoutMs} ms\n${log.slice(-2000)}`
        )
      )
    }, timeoutMs)
    const onData = (chunk) => {
      const text = tail + String(chunk)
      const lines = text.split('\n')
      tail = lines.pop()
      for (const line of lines) if (counted.test(line)) completed++
      log = (log + text).slice(-4000)
      if (completed >= members) {
        clearTimeout(timer)
        const ms = performance.now() - t0
        child.kill('SIGTERM')
        child.once('exit', () => resolve(ms))
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      if (completed < members) {
        clearTimeout(timer)
        reject(
          new Error(
            `named exited (${code}) after ${completed}/${members} zones\n${log.slice(-2000)}`
          )
        )
      }
    })
  })
}

function secondaryConf(dir, port, catalog, primaryPort) {
  const options = [
    'notify no;',
    'allow-new-zones yes;',
    SECONDARY_TUNING,
    `catalog-zones {
    zone "${catalog}" default-primaries port ${primaryPort} { 127.0.0.1 key "xfr-key"; }
      in-memory yes min-update-interval 1;
  };`,
  ]
  const zones = `zone "${catalog}" { type secondary; file "${dir}/catalog.db";
  primaries port ${primaryPort} { 127.0.0.1 key "xfr-key"; }; };`
  return namedConf({ dir, port, options, keys: { 'xfr-key': SECRET }, zones })
}

/** A BIND primary with `members` minimal zones and a catalog of them, from files; resolves once it answers. */
async function startBindPrimary(dir, catalog, from, members) {
  const port = await freePort()
  mkdirSync(path.join(dir, 'zones'), { recursive: true })
  const soa = (origin) =>
    `$ORIGIN ${origin}.\n@ 3600 IN SOA ns1.edgedns.dev. dns.edgedns.dev. 1 10000 2400 604800 3600\n`
  const stanzas = []
  const ptrs = []
  for (let n = from; n < from + members; n++) {
    const name = zoneName(n)
    const file = path.join(dir, 'zones', `${name}.db`)
    writeFileSync(
      file,
      `${soa(name)}@ 86400 IN NS ns1.edgedns.dev.\n@ 86400 IN NS ns2.edgedns.dev.\nwww 300 IN A 10.${(n >> 8) & 255}.${n & 255}.0\n`
    )
    stanzas.push(`zone "${name}" { type primary; file "${file}"; };`)
    ptrs.push(`b${n.toString(16).padStart(31, '0')}.zones 0 IN PTR ${name}.`)
  }
  const catalogFile = path.join(dir, 'catalog.db')
  writeFileSync(
    catalogFile,
    `$ORIGIN ${catalog}.\n@ 0 IN SOA invalid. invalid. 1 3600 600 2147483646 0\n@ 0 IN NS invalid.\nversion 0 IN TXT "2"\n${ptrs.join('\n')}\n`
  )
  const options = ['notify no;', 'allow-transfer { key "xfr-key"; };']
  const zones = `zone "${catalog}" { type primary; file "${catalogFile}"; };\n${stanzas.join('\n')}`
  const { child, log } = spawnNamed(
    dir,
    namedConf({ dir, port, options, keys: { 'xfr-key': SECRET }, zones })
  )
  const t0 = performance.now()
  while (!/all zones loaded/.test(log())) {
    if (child.exitCode !== null) throw new Error(`BIND primary exited:\n${log().slice(-4000)}`)
    if (performance.now() - t0 > 600_000) throw new Error('BIND primary did not load its zones')
    await sleep(50)
  }
  return {
    port,
    loadMs: performance.now() - t0,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve)
        child.kill('SIGTERM')
      }),
  }
}

/** One zone count: ours, then BIND → BIND, each into a fresh secondary. */
async function measureCount({ api, stack, log }, from, members, front) {
  const label = `catalog-cold-start ${members.toLocaleString('en-US')} zones`
  const account = (await api.call('POST', '/accounts', { name: `catalog-${members}` })).result
  const t0 = performance.now()
  await seedInD1(stack.db, stack.db, account.id, from, from + members, log, {
    parent: PARENT,
    maxRecords: 1,
  })
  const secondaryPort = await freePort()
  const key = { name: 'xfr-key', secret: SECRET }
  const peer = await makePeer(api, account.id, { name: 'bind', port: secondaryPort, key })
  await enableOutgoingForAccount(stack.db, account.id, peer)
  const catalog = `catalog-${members}.${PARENT}`
  await api.call('PUT', `/accounts/${account.id}/secondary_dns/catalog`, {
    name: catalog,
    peers: [peer],
  })
  log(`${label}: seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

  const timeoutMs = Math.max(120_000, members * 200)
  const ours = mkdtempSync(path.join(tmpdir(), 'edgedns-catz-ours-'))
  let oursMs
  try {
    oursMs = await runSecondary(
      ours,
      secondaryConf(ours, secondaryPort, catalog, front.port),
      members,
      timeoutMs
    )
  } finally {
    rmSync(ours, { recursive: true, force: true })
  }
  log(`${label}: ours → BIND secondary in ${(oursMs / 1000).toFixed(2)} s`)

  const primaryDir = mkdtempSync(path.join(tmpdir(), 'edgedns-catz-primary-'))
  const secondaryDir = mkdtempSync(path.join(tmpdir(), 'edgedns-catz-bind-'))
  let bindMs
  let primary
  try {
    primary = await startBindPrimary(primaryDir, catalog, from, members)
    bindMs = await runSecondary(
      secondaryDir,
      secondaryConf(secondaryDir, await freePort(), catalog, primary.port),
      members,
      timeoutMs
    )
  } finally {
    await primary?.stop()
    rmSync(primaryDir, { recursive: true, force: true })
    rmSync(secondaryDir, { recursive: true, force: true })
  }
  log(`${label}: BIND primary → BIND secondary in ${(bindMs / 1000).toFixed(2)} s`)
  return {
    zones: members,
    oursMs,
    bindMs,
    oursPerZoneMs: oursMs / members,
    bindPerZoneMs: bindMs / members,
  }
}

export async function runCatalogColdStart(ctx) {
  const { stack, quick } = ctx
  const front = await startDnsFront({ target: stack.url, transfer: { token: stack.token } })
  const rows = []
  try {
    let from = 0
    for (const members of catalogCounts(quick)) {
      rows.push(await measureCount(ctx, from, members, front))
      from += members
    }
  } finally {
    front.close()
  }
  return { rows, tuning: SECONDARY_TUNING }
}
