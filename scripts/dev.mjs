#!/usr/bin/env node
/**
 * `pnpm dev`: applies D1 migrations, starts the API + DoH + dashboard on http://127.0.0.1:8787,
 * seeds a demo zone on first start, and prints where everything is.
 */
import path from 'node:path'
import { applyMigrations, ROOT, startStack } from './lib/stack.mjs'
import { DEMO_ZONE, ensureDemoZone } from './lib/demo-zone.mjs'
import { startH2Front } from './lib/h2-front.mjs'

const port = Number(process.env.PORT ?? 8787)
const token = process.env.DEV_API_TOKEN ?? 'dev-token'
const persistTo = path.join(ROOT, '.wrangler/state')

console.log('Applying D1 migrations to the local database…')
applyMigrations(persistTo)
console.log('Starting wrangler dev (API + DoH + dashboard)…')
const stack = await startStack({ port, persistTo, token })
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => (stack.stop(), process.exit(0)))
stack.child.on('exit', (code) => process.exit(code ?? 0))

const { zone, created } = await ensureDemoZone(stack.base, token)
// wrangler dev fires no cron triggers: run the propagation sweep now (heals zones changed while the
// stack was down) and every minute, as the deployed cron trigger does.
await stack.sweep()
setInterval(stack.sweep, 60_000).unref()
// dig and kdig speak DoH over HTTP/2 only; workerd serves HTTP/1.1. The front plays the edge's part.
const h2Port = Number(process.env.H2_PORT ?? port + 1)
const front = await startH2Front({ target: stack.base, port: h2Port }).catch((e) => (console.warn(`HTTP/2 front not started: ${e.message}`), null))
const b = stack.base
console.log(`
────────────────────────────────────────────────────────────────────────
 edgedns is running
   API        ${b}/client/v4          (Authorization: Bearer ${token})
   DoH        ${b}/dns-query          (RFC 8484 wire format and JSON)
   Dashboard  ${b}/
   Demo zone  ${DEMO_ZONE}  id ${zone.id}${created ? '  (created now)' : ''}

 Try:
   curl -s -H 'Authorization: Bearer ${token}' ${b}/client/v4/zones/${zone.id}/dns_records
   curl -s -H 'accept: application/dns-json' '${b}/dns-query?name=www.${DEMO_ZONE}&type=A'
   curl -s -H 'accept: application/dns-message' '${b}/dns-query?dns=AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB' | od -An -tx1 | head -3${front ? `
   dig @127.0.0.1 -p ${front.port} +http-plain=/dns-query www.${DEMO_ZONE} A      # DoH over h2c (HTTP/2 front)` : ''}
────────────────────────────────────────────────────────────────────────
`)
