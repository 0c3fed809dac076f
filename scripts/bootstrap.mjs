#!/usr/bin/env node
/**
 * `pnpm run bootstrap`: mints the first admin token of a deployment (no dev token exists there).
 * The secret is printed once; only its SHA-256 hash reaches D1, through
 * `wrangler d1 execute edgedns --remote`. Refuses when an active admin token exists already.
 *
 *   pnpm run bootstrap --url U    mint it on the deployed database (after `pnpm run deploy`, which
 *                                 prints this command with the API's URL U, used in the example)
 *   pnpm run bootstrap --force    mint another (a lost token); delete the old one with DELETE /user/tokens/{id}
 *   pnpm run bootstrap --local    on the local database of `wrangler dev` / `pnpm dev` (.wrangler/state)
 */
import { parseArgs } from 'node:util'
import { bootstrapMessage, bootstrapStatement, newBootstrapToken } from './lib/bootstrap-token.mjs'
import { wranglerRunner } from './lib/wrangler.mjs'

const { values: flags } = parseArgs({
  options: {
    force: { type: 'boolean', default: false },
    local: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
    url: { type: 'string' },
  },
})
const wrangler = wranglerRunner()
const token = await newBootstrapToken()
const sql = bootstrapStatement({ id: token.id, hash: token.hash, force: flags.force })
const where = flags.local
  ? ['--local', ...(flags['persist-to'] ? ['--persist-to', flags['persist-to']] : [])]
  : ['--remote']
let out
try {
  out = wrangler(['d1', 'execute', 'edgedns', ...where, '--json', '--command', sql])
} catch (e) {
  console.error(
    `bootstrap: wrangler d1 execute failed (logged in? deployed? run \`pnpm run deploy\` first):\n${e.message}`
  )
  process.exit(1)
}
const inserted = JSON.parse(out).flatMap((r) => r.results ?? [])
if (!inserted.some((row) => row.id === token.id)) {
  console.error(
    'bootstrap: an active admin token exists already; nothing was created. Use --force to mint another one.'
  )
  process.exit(1)
}
const url = flags.url ?? (flags.local ? `http://localhost:${process.env.PORT ?? 8787}` : undefined)
console.log(bootstrapMessage({ id: token.id, secret: token.secret, url }))
