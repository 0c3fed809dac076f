/**
 * Test-only: SQL run on the e2e stack's local D1 database (`wrangler d1 execute --local` on its
 * state directory), for rows no API route writes yet.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { inject } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { ROOT } from '../../../scripts/lib/stack.mjs'

const run = promisify(execFile)

export async function localSql(sql: string): Promise<void> {
  await run(
    path.join(ROOT, 'node_modules/.bin/wrangler'),
    [
      'd1',
      'execute',
      'edgedns',
      '--local',
      '-c',
      'wrangler.toml',
      '--persist-to',
      inject('stackStateDir'),
      '--command',
      sql,
    ],
    { cwd: ROOT, env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' } }
  )
}
