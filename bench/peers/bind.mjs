/**
 * @module BIND 9.18 as a peer: primary zones from files, DoH on a plain-HTTP listener
 * (`http local` + `listen-on … tls none http local`, HTTP/2 only), dynamic updates with nsupdate.
 * Runs as the current user on free loopback ports in a temp directory.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseHeader, wirePath } from '../lib/dnswire.mjs'
import { h2Client } from './h2.mjs'
import { freePort, sleep, startProcess } from './proc.mjs'

function namedConf(dir, dnsPort, httpPort, zones) {
  return `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  listen-on port ${dnsPort} { 127.0.0.1; };
  listen-on port ${httpPort} tls none http local { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
  notify no;
};
http local { endpoints { "/dns-query"; }; };
controls { };
${zones.map((z) => `zone "${z.name}" { type primary; file "${z.file}"; allow-update { 127.0.0.1; }; };`).join('\n')}
`
}

/** Polls a DoH name over HTTP/2 until NOERROR with an answer (or `until` says so). */
export async function waitAnswer(
  client,
  name,
  { until = (h) => h.rcode === 'NOERROR' && h.an > 0, timeoutMs = 60_000 } = {}
) {
  const t0 = performance.now()
  for (;;) {
    try {
      if (until(parseHeader(await client.get(wirePath(name))))) return performance.now()
    } catch {}
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`BIND: ${name} not answered within ${timeoutMs} ms`)
  }
}

/**
 * Starts named with `zones` ([{ name, file }]) and waits for the first correct DoH answer for
 * `probe`. Returns { origin, dnsPort, startMs, client, stop }.
 */
export async function startBind({ dir, zones, probe }) {
  const dnsPort = await freePort()
  const httpPort = await freePort()
  const conf = path.join(dir, 'named.conf')
  writeFileSync(conf, namedConf(dir, dnsPort, httpPort, zones))
  const origin = `http://127.0.0.1:${httpPort}`
  const t0 = performance.now()
  const proc = startProcess('named', ['-g', '-c', conf])
  let client = null
  try {
    for (;;) {
      if (proc.exited()) throw new Error(`named exited:\n${proc.output().slice(-2000)}`)
      try {
        client ??= await h2Client(origin)
        const h = parseHeader(await client.get(wirePath(probe)))
        if (h.rcode === 'NOERROR' && h.an > 0) break
      } catch {
        client?.close()
        client = null
        await sleep(5)
      }
      if (performance.now() - t0 > 300_000) throw new Error('named did not answer within 300 s')
    }
  } catch (e) {
    await proc.stop()
    throw e
  }
  const startMs = performance.now() - t0
  return {
    origin,
    dnsPort,
    startMs,
    client,
    async stop() {
      client.close()
      await proc.stop()
    },
  }
}

/** Sends `adds` ([{ name (FQDN), content }]) with nsupdate, `perMessage` updates per UPDATE. */
export function nsupdate(dnsPort, zone, adds, perMessage = 1000) {
  const lines = [`server 127.0.0.1 ${dnsPort}`, `zone ${zone}`]
  adds.forEach((a, i) => {
    lines.push(`update add ${a.name}. 300 A ${a.content}`)
    if ((i + 1) % perMessage === 0 || i === adds.length - 1) lines.push('send')
  })
  return new Promise((resolve, reject) => {
    const child = spawn('nsupdate', ['-v'], { stdio: ['pipe', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`nsupdate exited ${code}: ${err.slice(0, 500)}`))
    )
    child.stdin.end(lines.join('\n') + '\n')
  })
}
