#!/usr/bin/env node
/**
 * `pnpm run deploy`: deploys edgedns to the Cloudflare account wrangler is logged in to
 * (`pnpm exec wrangler login`, or CLOUDFLARE_API_TOKEN + CLOUDFLARE_ACCOUNT_ID). Idempotent: finds
 * or creates every D1 shard of wrangler.toml (`edgedns`, `edgedns-1`, …) and the KV namespace
 * `edgedns-zones`, writes their ids into wrangler.toml and workers/doh/wrangler.jsonc, applies the
 * migrations to every shard remotely, deploys the API worker then the DoH worker, puts the DNSSEC
 * key-encryption secret on both (generated into a git-ignored file on the first deploy, reused
 * after), and prints the URLs and the bootstrap command that mints the first admin token.
 *
 * `--dry-run`: no account needed. Checks the configs, bundles both workers
 * (`wrangler deploy --dry-run --outdir`) and prints their sizes against the plan limits.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { DeployError, deploy, deployedMessage, dryRun } from './lib/deploy-steps.mjs'
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
    log(deployedMessage(urls))
  }
} catch (e) {
  console.error(`deploy: ${e instanceof DeployError ? e.message : (e.stack ?? e)}`)
  process.exit(1)
}
