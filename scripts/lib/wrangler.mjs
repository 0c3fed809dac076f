/**
 * @module Runs the project's own wrangler (node_modules/.bin) non-interactively, as a function of
 * its arguments returning stdout: the one seam the deploy and bootstrap scripts talk to Cloudflare
 * through, so their tests can put a recording stub in its place.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { ROOT } from './stack.mjs'

const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler')

/**
 * `input` is written to wrangler's stdin (a secret for `wrangler secret put`): never echoed, never
 * on the command line.
 * @returns {(args: string[], options?: { input?: string }) => string}
 */
export function wranglerRunner({ cwd = ROOT, echo = false } = {}) {
  return (args, { input } = {}) => {
    if (echo)
      console.log(
        `$ wrangler ${args.map((a) => (/^[\w@:.,/=-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}`
      )
    try {
      return execFileSync(WRANGLER, args, {
        cwd,
        encoding: 'utf8',
        stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        input,
        maxBuffer: 64 * 1024 * 1024,
        // CI: no prompts, no interactive login; metrics off.
        env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0' },
      })
    } catch (e) {
      const detail = `${e.stderr ?? ''}${e.stdout ?? ''}`.trim()
      throw new Error(
        `wrangler ${args.slice(0, 3).join(' ')} failed (exit ${e.status}):\n${detail}`
      )
    }
  }
}
