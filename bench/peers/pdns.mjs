/**
 * @module PowerDNS Authoritative 4.7 as a peer: gsqlite3 backend loaded with the same zones, the
 * HTTP API for changes (PATCH rrsets), and dnsdist in front for DoH (plain HTTP/1.1 listener).
 * Runs as the current user on free loopback ports in a temp directory.
 */
import { spawn } from 'node:child_process'
import { createReadStream, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseHeader, wirePath } from '../lib/dnswire.mjs'
import { freePort, sleep, startProcess } from './proc.mjs'

const SCHEMA = '/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql'
const API_KEY = 'bench-key'

/** Creates the SQLite database from the schema and the zones' SQL files. */
export async function createDb(db, sqlFiles) {
  for (const file of [SCHEMA, ...sqlFiles]) {
    await new Promise((resolve, reject) => {
      const p = spawn('sqlite3', [db], { stdio: ['pipe', 'ignore', 'pipe'] })
      let err = ''
      p.stderr.on('data', (d) => (err += d))
      p.on('exit', (code) =>
        code === 0 && !err ? resolve() : reject(new Error(`sqlite3 ${file}: ${err.slice(0, 500)}`))
      )
      createReadStream(file).pipe(p.stdin)
    })
  }
}

/** One DoH wire query over HTTP/1.1 → header. */
async function dohHeader(origin, name) {
  const res = await fetch(origin + wirePath(name))
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`)
  return parseHeader(Buffer.from(await res.arrayBuffer()))
}

/** Polls until NOERROR with an answer; returns performance.now() when seen. */
export async function waitAnswer(origin, name, { timeoutMs = 60_000 } = {}) {
  const t0 = performance.now()
  for (;;) {
    try {
      const h = await dohHeader(origin, name)
      if (h.rcode === 'NOERROR' && h.an > 0) return performance.now()
    } catch {}
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`PowerDNS: ${name} not answered within ${timeoutMs} ms`)
  }
}

/** Starts pdns_server and dnsdist on `db`; waits for the first correct DoH answer for `probe`. */
export async function startPdns({ dir, db, probe }) {
  const dnsPort = await freePort()
  const apiPort = await freePort()
  const distPort = await freePort()
  const dohPort = await freePort()
  writeFileSync(
    path.join(dir, 'pdns.conf'),
    [
      'launch=gsqlite3',
      `gsqlite3-database=${db}`,
      'local-address=127.0.0.1',
      `local-port=${dnsPort}`,
      'api=yes',
      `api-key=${API_KEY}`,
      'webserver=yes',
      'webserver-address=127.0.0.1',
      `webserver-port=${apiPort}`,
      'webserver-allow-from=127.0.0.0/8',
      `socket-dir=${dir}`,
      'daemon=no',
      'guardian=no',
      'disable-syslog=yes',
      'loglevel=3',
    ].join('\n') + '\n'
  )
  const distConf = path.join(dir, 'dnsdist.conf')
  writeFileSync(
    distConf,
    [
      `setLocal('127.0.0.1:${distPort}')`,
      `newServer({address='127.0.0.1:${dnsPort}', healthCheckMode='up'})`,
      `addDOHLocal('127.0.0.1:${dohPort}', nil, nil, '/dns-query')`,
      "setSecurityPollSuffix('')",
    ].join('\n') + '\n'
  )
  const origin = `http://127.0.0.1:${dohPort}`
  const t0 = performance.now()
  const pdns = startProcess('pdns_server', [`--config-dir=${dir}`])
  const dist = startProcess('dnsdist', ['--supervised', '--disable-syslog', '-C', distConf])
  const stop = async () => {
    await dist.stop()
    await pdns.stop()
  }
  try {
    for (;;) {
      if (pdns.exited()) throw new Error(`pdns_server exited:\n${pdns.output().slice(-2000)}`)
      if (dist.exited()) throw new Error(`dnsdist exited:\n${dist.output().slice(-2000)}`)
      try {
        const h = await dohHeader(origin, probe)
        if (h.rcode === 'NOERROR' && h.an > 0) break
      } catch {
        await sleep(5)
      }
      if (performance.now() - t0 > 120_000)
        throw new Error('PowerDNS/dnsdist did not answer within 120 s')
    }
  } catch (e) {
    await stop()
    throw e
  }
  return {
    origin,
    startMs: performance.now() - t0,
    /** PATCH /zones/<zone>. with rrsets; resolves when the API answered (204). */
    async patch(zone, rrsets) {
      const res = await fetch(
        `http://127.0.0.1:${apiPort}/api/v1/servers/localhost/zones/${zone}.`,
        {
          method: 'PATCH',
          headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ rrsets }),
        }
      )
      if (res.status !== 204)
        throw new Error(`PowerDNS PATCH → ${res.status} ${(await res.text()).slice(0, 300)}`)
    },
    stop,
  }
}

/** REPLACE rrsets adding one A record per name. */
export const replaceA = (adds) =>
  adds.map((a) => ({
    name: `${a.name}.`,
    type: 'A',
    ttl: 300,
    changetype: 'REPLACE',
    records: [{ content: a.content, disabled: false }],
  }))
