#!/usr/bin/env node
/**
 * `pnpm dev`: applies D1 migrations, starts the API + DoH + dashboard on http://127.0.0.1:8787,
 * seeds a demo zone on a first start (an empty local database), and prints where everything is.
 *
 * It owns what it starts: on an error, Ctrl-C, SIGTERM, SIGHUP, when wrangler dies, or when the
 * pnpm process that ran it is gone, it stops every process it started (wrangler and its workerd
 * runtimes, the public HTTP/1.1 front, the HTTP/2 front) and says why.
 *
 * Options (flags win over the environment):
 *   --port N         PORT         API, DoH and dashboard (default 8787)
 *   --h2-port N      H2_PORT      the HTTP/2 front for dig/kdig (default port + 1)
 *   --dns-port N     DNS_PORT     the classic DNS front, UDP and TCP, for dig/delv/kdig/drill (default port + 2)
 *   --persist-to DIR EDGEDNS_STATE_DIR  local D1/KV/DO state (default .wrangler/state)
 *   DEV_API_TOKEN    the local full-access token (default dev-token)
 */
import path from 'node:path'
import { parseArgs } from 'node:util'
import {
  applyMigrations,
  FIRST_MIGRATION,
  freePort,
  portInUse,
  ROOT,
  startStack,
  stopGroup,
} from './lib/stack.mjs'
import { DEMO_ZONE, findDemoZone, seedDemoZone } from './lib/demo-zone.mjs'
import { startH2Front } from './lib/h2-front.mjs'
import { startPublicFront } from './lib/public-front.mjs'
import { startDnsFront } from './lib/dns-front.mjs'
import { watchLaunchers } from './lib/launcher-watch.mjs'

const { values: flags } = parseArgs({
  options: {
    port: { type: 'string' },
    'h2-port': { type: 'string' },
    'dns-port': { type: 'string' },
    'persist-to': { type: 'string' },
  },
})
const rawPort = flags.port ?? process.env.PORT ?? '8787'
const port = Number(rawPort)
const rawH2Port = flags['h2-port'] ?? process.env.H2_PORT ?? String(port + 1)
const h2Port = Number(rawH2Port)
const rawDnsPort = flags['dns-port'] ?? process.env.DNS_PORT ?? String(port + 2)
const dnsPort = Number(rawDnsPort)
const persistTo = path.resolve(
  ROOT,
  flags['persist-to'] ?? process.env.EDGEDNS_STATE_DIR ?? '.wrangler/state'
)
const token = process.env.DEV_API_TOKEN ?? 'dev-token'

/** The process group of `wrangler dev` (wrangler, workerd, esbuild), once spawned. */
let wranglerGroup = null
let front = null
let publicFront = null
let dnsFront = null
let stopping = false

/** Stops everything this process started, says why, and exits with `code`. */
async function shutdown(reason, code) {
  if (stopping) return
  stopping = true
  const say = code === 0 ? console.log : console.error
  say(`\nedgedns dev: ${reason}; stopping wrangler dev, workerd and the HTTP and DNS fronts…`)
  front?.close()
  dnsFront?.close()
  publicFront?.close()
  if (wranglerGroup !== null) await stopGroup(wranglerGroup)
  say('edgedns dev: stopped.')
  process.exit(code)
}

process.on('SIGINT', () => shutdown('interrupted (Ctrl-C)', 0))
process.on('SIGTERM', () => shutdown('SIGTERM received', 0))
process.on('SIGHUP', () => shutdown('terminal closed (SIGHUP)', 0))
// `kill <pnpm pid>` ends pnpm but does not reach this process: stop when the launcher is gone.
watchLaunchers((pid) => shutdown(`its launcher (pid ${pid}) exited`, 0))
process.on('uncaughtException', (e) => shutdown(`error: ${e?.stack ?? e}`, 1))
process.on('unhandledRejection', (e) => shutdown(`error: ${e?.stack ?? e}`, 1))

for (const [p, variable, raw] of [
  [port, 'PORT', rawPort],
  [h2Port, 'H2_PORT', rawH2Port],
  [dnsPort, 'DNS_PORT', rawDnsPort],
]) {
  if (!Number.isInteger(p) || p < 1 || p > 65535) {
    console.error(
      `edgedns dev: ${variable} must be a port number (1-65535); got ${JSON.stringify(raw)}`
    )
    process.exit(1)
  }
  if (await portInUse(p)) {
    console.error(
      `edgedns dev: port ${p} on 127.0.0.1 is already in use (another \`pnpm dev\` or \`wrangler dev\` still running?).\n` +
        `  Stop that process (for example: lsof -i :${p}, or fuser -k ${p}/tcp), or choose other ports:\n` +
        `  ${variable}=${p + 10} pnpm dev   (or: pnpm dev --port N --h2-port M --dns-port D)`
    )
    process.exit(1)
  }
}

async function main() {
  console.log('Applying D1 migrations to the local database…')
  const applied = applyMigrations(persistTo)
  const firstStart = applied.includes(FIRST_MIGRATION)
  console.log('Starting wrangler dev (API + DoH + dashboard)…')
  // wrangler dev listens on an internal port; the public port is a small front that forwards to it
  // and answers CONNECT, which Miniflare would answer with a 500 before the worker sees it.
  let internalPort = await freePort()
  while (internalPort === port || internalPort === h2Port || internalPort === dnsPort)
    internalPort = await freePort()
  const stack = await startStack({
    port: internalPort,
    persistTo,
    token,
    onSpawn: (child) => {
      wranglerGroup = child.pid
      child.on('exit', (code, signal) =>
        shutdown(
          `wrangler dev exited unexpectedly (${signal ? `killed by ${signal}` : `exit code ${code}`})`,
          1
        )
      )
    },
  })

  publicFront = await startPublicFront({ target: stack.base, port })
  const b = `http://127.0.0.1:${publicFront.port}`
  // The demo zone comes only with a first start: a user who deleted it does not get it back.
  let demo = null
  if (firstStart) {
    demo = await seedDemoZone(b, token).catch((e) => {
      console.warn(
        `edgedns dev: warning: the demo zone ${DEMO_ZONE} was not created (${e.message}); the stack runs without it.`
      )
      return null
    })
  } else {
    const zone = await findDemoZone(b, token).catch(() => null)
    demo = zone && { zone, created: false }
  }
  // wrangler dev fires no cron triggers: run the propagation sweep now (heals zones changed while the
  // stack was down) and every minute, as the deployed cron trigger does.
  await stack.sweep()
  setInterval(stack.sweep, 60_000).unref()
  // dig and kdig speak DoH over HTTP/2 only; workerd serves HTTP/1.1. The front plays the edge's part.
  front = await startH2Front({ target: b, port: h2Port }).catch(
    (e) => (console.warn(`edgedns dev: warning: HTTP/2 front not started: ${e.message}`), null)
  )
  // Plain DNS over UDP and TCP for dig, delv, kdig and drill (`pnpm dns-front` on port 53 in production).
  // Zone transfers (AXFR/IXFR, signed SOA checks) go to the API's relay with the dev token, and so
  // do NOTIFY messages for secondary zones.
  dnsFront = await startDnsFront({
    target: b,
    port: dnsPort,
    transfer: { token },
    notify: { token },
  }).catch(
    (e) => (
      console.warn(
        `edgedns dev: warning: DNS front (UDP/TCP ${dnsPort}) not started: ${e.message}`
      ),
      null
    )
  )
  const name = demo ? DEMO_ZONE : 'your-zone.example'
  console.log(`
────────────────────────────────────────────────────────────────────────
 edgedns is running
   API        ${b}/client/v4          (Authorization: Bearer ${token})
   DoH        ${b}/dns-query          (RFC 8484 wire format and JSON)
   Dashboard  ${b}/
   Demo zone  ${demo ? `${DEMO_ZONE}  id ${demo.zone.id}${demo.created ? '  (created now)' : ''}` : 'none (it is created only on a first start)'}
   State      ${persistTo}

 Try:
   curl -s -H 'Authorization: Bearer ${token}' ${b}/client/v4/zones
   curl -s -H 'accept: application/dns-json' '${b}/dns-query?name=www.${name}&type=A'${
     front
       ? `
   dig @127.0.0.1 -p ${front.port} +http-plain=/dns-query www.${name} A      # DoH over h2c (HTTP/2 front)`
       : ''
   }${
     dnsFront
       ? `
   dig @127.0.0.1 -p ${dnsFront.port} +dnssec www.${name} A                  # classic DNS (UDP/TCP front)`
       : ''
   }

 Ctrl-C stops everything.
────────────────────────────────────────────────────────────────────────
  `)
}

main().catch((e) => shutdown(`could not start: ${e?.message ?? e}`, 1))
