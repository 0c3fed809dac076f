/**
 * @module Starts the local stack (API + DoH + dashboard) with wrangler dev, and stops it.
 * Shared by `pnpm dev` and the end-to-end tests.
 */
import { spawn, execFileSync } from 'node:child_process'
import { createServer } from 'node:net'
import https from 'node:https'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler')
const API_CONFIG = 'workers/api/wrangler.jsonc'
const DOH_CONFIG = 'workers/doh/wrangler.jsonc'

/** A port nobody listens on right now, on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

/** Applies D1 migrations to the local database under `persistTo`. */
export function applyMigrations(persistTo) {
  execFileSync(WRANGLER, ['d1', 'migrations', 'apply', 'edgedns', '--local', '-c', API_CONFIG, '--persist-to', persistTo], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
  })
}

/**
 * Starts `wrangler dev` for the API worker (primary, serving the port) and the DoH worker.
 * Resolves once the API answers; `stop()` ends the whole process group.
 */
export async function startStack({ port = 8787, persistTo, token, protocol = 'http', quiet = false, extraArgs = [] }) {
  const args = [
    'dev', '-c', API_CONFIG, '-c', DOH_CONFIG,
    '--ip', '127.0.0.1', '--port', String(port), '--persist-to', persistTo,
    '--local-protocol', protocol, '--var', `DEV_API_TOKEN:${token}`, '--show-interactive-dev-session=false',
    ...extraArgs,
  ]
  const child = spawn(WRANGLER, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NODE_TLS_REJECT_UNAUTHORIZED: protocol === 'https' ? '0' : process.env.NODE_TLS_REJECT_UNAUTHORIZED },
  })
  let log = ''
  if (quiet) {
    child.stdout.on('data', (d) => (log += d))
    child.stderr.on('data', (d) => (log += d))
  }
  let exited = false
  child.on('exit', () => (exited = true))
  const stop = () => {
    if (exited) return
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {}
  }
  const base = `${protocol}://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (exited) throw new Error(`wrangler dev exited early\n${log}`)
    if (Date.now() > deadline) {
      stop()
      throw new Error(`wrangler dev did not answer on ${base} within 120 s\n${log}`)
    }
    try {
      const status = await probe(`${base}/client/v4/user/tokens/verify`, { authorization: `Bearer ${token}` })
      if (status === 200) break
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  /** Runs the propagation sweep once, as the cron trigger does every minute (wrangler dev fires none). */
  const sweep = () =>
    fetch(`${base}/client/v4/propagation/sweep`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
      .then((r) => r.json())
      .catch(() => undefined)
  return { base, child, stop, sweep, log: () => log }
}

/** HTTP status of a GET; over https the local self-signed certificate is accepted. */
function probe(url, headers) {
  if (!url.startsWith('https:')) return fetch(url, { headers }).then((res) => res.status)
  return new Promise((resolve, reject) => {
    const req = https.get(url, { headers, rejectUnauthorized: false }, (res) => {
      res.resume()
      resolve(res.statusCode)
    })
    req.on('error', reject)
  })
}
