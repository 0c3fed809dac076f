/**
 * @module Runs BIND 9.18 (`named` from Debian's bind9) for the differential suite: authoritative
 * only, on a free loopback port, DoH on its plain-HTTP listener, in a temp directory it removes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http2 from 'node:http2'
import { tmpdir } from 'node:os'
import path from 'node:path'

export interface BindServer {
  /** Sends a DNS message over DoH (HTTP/2 without TLS, POST) and returns the answer. */
  query(message: Uint8Array): Promise<Uint8Array>
  stop(): Promise<void>
}

/** `named` lives in /usr/sbin, which an ordinary user's PATH often leaves out. */
const NAMED = ['named', '/usr/sbin/named'].find(
  (cmd) => spawnSync(cmd, ['-v'], { stdio: 'pipe' }).status === 0
)

export function hasNamed(): boolean {
  return NAMED !== undefined && spawnSync('named-checkconf', ['-v'], { stdio: 'pipe' }).status === 0
}

/**
 * Starts named with `zones` (name → zone-file text). `minimal-responses yes` leaves out the
 * authority NS and additional data a positive answer does not need, as the project does; glue
 * in referrals and the SOA of negative answers are still given.
 */
export async function startBind(zones: Record<string, string>, port: number): Promise<BindServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-bind-'))
  const zoneStanzas = Object.entries(zones).map(([name, text], i) => {
    writeFileSync(path.join(dir, `z${i}.zone`), text)
    return `zone "${name}" { type primary; file "z${i}.zone"; };`
  })
  writeFileSync(
    path.join(dir, 'named.conf'),
    `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  managed-keys-directory "${dir}";
  listen-on port ${port} tls none http doh { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  minimal-responses yes;
  dnssec-validation no;
  notify no;
};
http doh { endpoints { "/dns-query"; }; };
controls { };
${zoneStanzas.join('\n')}
`
  )
  const check = spawnSync('named-checkconf', ['-z', path.join(dir, 'named.conf')], {
    encoding: 'utf8',
  })
  if (check.status !== 0) throw new Error(`named-checkconf failed:\n${check.stdout}${check.stderr}`)

  const child: ChildProcess = spawn(NAMED ?? 'named', ['-g', '-c', path.join(dir, 'named.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout?.on('data', (d) => (log += d))
  child.stderr?.on('data', (d) => (log += d))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))

  const session = await connect(
    port,
    () => log,
    () => child.exitCode !== null
  )
  const stop = async (): Promise<void> => {
    session.close()
    if (child.exitCode === null) {
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
  }
  return {
    stop,
    query: (message) =>
      new Promise((resolve, reject) => {
        const req = session.request({
          ':method': 'POST',
          ':path': '/dns-query',
          'content-type': 'application/dns-message',
          accept: 'application/dns-message',
          'content-length': message.length,
        })
        const chunks: Buffer[] = []
        let status = 0
        req.on('response', (h) => (status = Number(h[':status'])))
        req.on('data', (d: Buffer) => chunks.push(d))
        req.on('end', () =>
          status === 200
            ? resolve(new Uint8Array(Buffer.concat(chunks)))
            : reject(new Error(`BIND DoH answered HTTP ${status}`))
        )
        req.on('error', reject)
        req.end(Buffer.from(message))
      }),
  }
}

/** Connects once named's DoH listener accepts (deadline 20 s); the zones are loaded by then. */
async function connect(
  port: number,
  log: () => string,
  exited: () => boolean
): Promise<http2.ClientHttp2Session> {
  const deadline = Date.now() + 20_000
  for (;;) {
    if (exited()) throw new Error(`named exited:\n${log()}`)
    if (/all zones loaded/.test(log()) && /running/.test(log())) {
      const session = http2.connect(`http://127.0.0.1:${port}`)
      const ok = await new Promise<boolean>((resolve) => {
        session.once('connect', () => resolve(true))
        session.once('error', () => resolve(false))
      })
      if (ok) return session
      session.destroy()
    }
    if (Date.now() > deadline) throw new Error(`named did not start within 20 s:\n${log()}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
