/** The edgedns CLI (packages/sdk/bin/edgedns.mjs, run by Node 22 with type stripping) against the stack. */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { inject } from 'vitest'

const BIN = path.resolve(import.meta.dirname, '../../../packages/sdk/bin/edgedns.mjs')
const NODE = path.resolve(import.meta.dirname, '../../../node_modules/.bin/node')

/** Runs the CLI with `args`: its exit code, stdout and stderr. */
export function edgedns(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(NODE, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, EDGEDNS_URL: inject('stackBase'), EDGEDNS_TOKEN: inject('stackToken') },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}
