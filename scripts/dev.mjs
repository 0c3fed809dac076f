#!/usr/bin/env node
/**
 * `pnpm dev`: applies D1 migrations, starts the API + DoH + dashboard on http://127.0.0.1:8787,
 * seeds a demo zone on first start, and prints where everything is.
 */
import path from 'node:path'
import { applyMigrations, ROOT, startStack } from './lib/stack.mjs'
import { DEMO_ZONE, ensureDemoZone } from './lib/demo-zone.mjs'

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
   dig +https-get=/dns-query @127.0.0.1 -p ${port} www.${DEMO_ZONE} A   # needs --local-protocol https; see README
────────────────────────────────────────────────────────────────────────
`)
