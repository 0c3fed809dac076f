/**
 * Starts the real local stack (wrangler dev: API + DoH + dashboard) once for the end-to-end tests.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { applyMigrations, freePort, startStack } from '../../scripts/lib/stack.mjs'

export const E2E_TOKEN = 'e2e-token'
/** A disabled zone keeps signing this long in the e2e stack (production: two days). */
export const DNSSEC_DISABLE_GRACE_SECONDS = 4

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-e2e-'))
  applyMigrations(dir)
  // Strict bindings: a production-limit breach fails the request (a 500 or a SERVFAIL) instead of passing locally.
  const stack = await startStack({
    port: await freePort(),
    persistTo: dir,
    token: E2E_TOKEN,
    quiet: true,
    extraArgs: [
      '--var',
      'STRICT_LIMITS:1',
      '--var',
      `DNSSEC_DISABLE_GRACE_SECONDS:${DNSSEC_DISABLE_GRACE_SECONDS}`,
      // A secondary zone's SOA refresh and retry of a few seconds are kept (expiry in seconds).
      '--var',
      'SECONDARY_MIN_REFRESH_SECONDS:1',
      '--var',
      'SECONDARY_MIN_RETRY_SECONDS:1',
    ],
  })
  project.provide('stackBase', stack.base)
  project.provide('stackToken', E2E_TOKEN)
  return async () => {
    await stack.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    stackBase: string
    stackToken: string
  }
}
