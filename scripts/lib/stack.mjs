/**
 * @module Starts the local stack (API + DoH + dashboard) with wrangler dev, and stops it.
 * Shared by `pnpm dev` and the end-to-end tests.
 */
import { spawn, execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import https from 'node:https'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler')
/** The API worker's configuration: it serves the API, the dashboard and /dns-query. */
const API_CONFIG = 'wrangler.toml'

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

/** True when something already listens on 127.0.0.1:`port`. */
export function portInUse(port) {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', (e) =>
      e.code === 'EADDRINUSE' || e.code === 'EACCES' ? resolve(true) : reject(e)
    )
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(false)))
  })
}

/**
 * Applies D1 migrations to the local database under `persistTo`. Returns the names of the
 * migrations applied now (none when the database was up to date).
 */
export function applyMigrations(persistTo) {
  const out = execFileSync(
    WRANGLER,
    [
      'd1',
      'migrations',
      'apply',
      'edgedns',
      '--local',
      '-c',
      API_CONFIG,
      '--persist-to',
      persistTo,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    }
  ).toString()
  return [...out.matchAll(/│\s*(\S+\.sql)\s*│\s*✅/g)].map((m) => m[1])
}

/** The first migration: when it is applied now, the local database was empty (a first start). */
export const FIRST_MIGRATION = readdirSync(path.join(ROOT, 'migrations'))
  .filter((f) => f.endsWith('.sql'))
  .sort()[0]

/** True while any process of the process group `pgid` is alive. */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (e) {
    return e.code === 'EPERM'
  }
}

/**
 * Ends every process of the group `pgid`: SIGTERM, then SIGKILL for what is left after `graceMs`.
 * Resolves once none is left.
 */
export async function stopGroup(pgid, graceMs = 5_000) {
  const signal = (sig) => {
    try {
      process.kill(-pgid, sig)
    } catch {}
  }
  const waitGone = async (ms) => {
    const until = Date.now() + ms
    while (groupAlive(pgid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
    return !groupAlive(pgid)
  }
  if (!groupAlive(pgid)) return
  signal('SIGTERM')
  if (await waitGone(graceMs)) return
  signal('SIGKILL')
  await waitGone(5_000)
}

/**
 * Starts `wrangler dev` for the API worker (API, dashboard and /dns-query), in a
 * process group of its own (wrangler, its workerd runtimes and esbuild). Resolves once the API
 * answers; `stop()` ends the whole group (SIGTERM, then SIGKILL) and resolves when nothing is left.
 */
export async function startStack({
  port = 8787,
  persistTo,
  token,
  protocol = 'http',
  quiet = false,
  extraArgs = [],
  onSpawn,
}) {
  const args = [
    'dev',
    '-c',
    API_CONFIG,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--persist-to',
    persistTo,
    '--local-protocol',
    protocol,
    '--var',
    `DEV_API_TOKEN:${token}`,
    '--show-interactive-dev-session=false',
    ...extraArgs,
  ]
  const child = spawn(WRANGLER, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      NODE_TLS_REJECT_UNAUTHORIZED:
        protocol === 'https' ? '0' : process.env.NODE_TLS_REJECT_UNAUTHORIZED,
    },
  })
  onSpawn?.(child)
  let log = ''
  if (quiet) {
    child.stdout.on('data', (d) => (log += d))
    child.stderr.on('data', (d) => (log += d))
  }
  let exited = false
  child.on('exit', () => (exited = true))
  const stop = () => stopGroup(child.pid)
  const base = `${protocol}://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (exited) {
      await stop()
      throw new Error(`wrangler dev exited early\n${log}`)
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`wrangler dev did not answer on ${base} within 120 s\n${log}`)
    }
    try {
      const status = await probe(`${base}/client/v4/user/tokens/verify`, {
        authorization: `Bearer ${token}`,
      })
      if (status === 200) break
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  /** Runs the propagation sweep once, as the cron trigger does every minute (wrangler dev fires none). */
  const sweep = () =>
    fetch(`${base}/client/v4/propagation/sweep`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    })
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
