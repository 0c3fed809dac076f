#!/usr/bin/env node
/**
 * `pnpm run deploy`: deploys edgedns to the Cloudflare account wrangler is logged in to
 * (`pnpm exec wrangler login`, or CLOUDFLARE_API_TOKEN + CLOUDFLARE_ACCOUNT_ID). Idempotent: finds
 * or creates the D1 database `edgedns` and the KV namespace `edgedns-zones`, writes their ids into
 * wrangler.toml and workers/doh/wrangler.jsonc, applies migrations remotely, deploys the DoH worker
 * then the API, and prints the URLs. Then mint the first admin token: `pnpm run bootstrap`.
 *
 * `--dry-run`: no account needed. Checks the configs, bundles both workers
 * (`wrangler deploy --dry-run --outdir`) and prints their sizes against the plan limits.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { DeployError, deploy, dryRun } from './lib/deploy-steps.mjs'
import { ROOT } from './lib/stack.mjs'
import { wranglerRunner } from './lib/wrangler.mjs'

const { values: flags } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false } } })
const log = (line) => console.log(line)

try {
  if (flags['dry-run']) {
    const outdir = mkdtempSync(path.join(tmpdir(), 'edgedns-deploy-'))
    try {
      dryRun({ run: wranglerRunner(), root: ROOT, outdir, log })
    } finally {
      rmSync(outdir, { recursive: true, force: true })
    }
    log('dry run: configs and bundles are fine; `pnpm run deploy` deploys them.')
  } else {
    const { urls } = deploy({ run: wranglerRunner({ echo: true }), root: ROOT, log })
    log(`
Deployed.
  API, dashboard and /dns-query  ${urls['edgedns-api'] ?? '(see the wrangler output above)'}
  DoH endpoint                   ${urls['edgedns-doh'] ? `${urls['edgedns-doh']}/dns-query` : '(see the wrangler output above)'}
Next, once: pnpm run bootstrap   (mints the first admin token)`)
  }
} catch (e) {
  console.error(`deploy: ${e instanceof DeployError ? e.message : (e.stack ?? e)}`)
  process.exit(1)
}
