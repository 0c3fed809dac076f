/**
 * A stubbed wrangler for the deploy step tests: a fake account (D1 databases, KV namespaces,
 * deployed workers and their secrets) that records every command it is given, with the stdin it
 * was fed, and answers with wrangler's JSON. Each test gets copies of the repository's configs in a
 * fresh temp directory (`root`).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import {
  API_CONFIG,
  deploy,
  DNSSEC_SECRET,
  DOH_CONFIG,
  HARNESS_MARKER,
  SECRET_FILE,
  // @ts-expect-error plain ESM module
} from './deploy-steps.mjs'
// @ts-expect-error plain ESM module
import { ROOT } from './stack.mjs'

export const D1_ID = '6f1d7a8e-0c55-4b8e-9f0a-1b2c3d4e5f60'
export const KV_ID = '0123456789abcdef0123456789abcdef'
export const API_URL = 'https://edgedns-api.someone.workers.dev'
export const DOH_URL = 'https://edgedns-doh.someone.workers.dev'
const WORKER_OF: Record<string, string> = {
  [API_CONFIG]: 'edgedns-api',
  [DOH_CONFIG]: 'edgedns-doh',
}

type Db = { uuid: string; name: string }
type Command = { args: string[]; input?: string }

/** A Cloudflare account as wrangler shows it, and the commands it was given. */
export function fakeAccount(
  initial: {
    d1?: Db[]
    kv?: { id: string; title: string }[]
    secrets?: Record<string, string[]>
  } = {}
) {
  const state = {
    d1: [...(initial.d1 ?? [])],
    kv: [...(initial.kv ?? [])],
    /** Deployed workers: their secrets (name → value) and the config text they were deployed with. */
    workers: new Map<string, { secrets: Map<string, string>; config: string }>(
      Object.entries(initial.secrets ?? {}).map(([w, names]) => [
        w,
        { secrets: new Map(names.map((n) => [n, 'a value set before'])), config: '' },
      ])
    ),
  }
  const calls: Command[] = []
  const run = (args: string[], options: { input?: string } = {}): string => {
    calls.push(options.input === undefined ? { args } : { args, input: options.input })
    const cmd = args.join(' ')
    const config = args[args.indexOf('-c') + 1]!
    const worker = WORKER_OF[config]!
    if (cmd === 'd1 list --json') return JSON.stringify(state.d1)
    if (args[0] === 'd1' && args[1] === 'create') {
      const name = args[2]!
      const uuid = name === 'edgedns' ? D1_ID : `00000000-0000-4000-8000-${name.padStart(12, '0')}`
      return (state.d1.push({ uuid, name }), '✅ Successfully created DB')
    }
    if (cmd === 'kv namespace list') return JSON.stringify(state.kv)
    if (cmd === 'kv namespace create edgedns-zones')
      return (state.kv.push({ id: KV_ID, title: 'edgedns-zones' }), 'Creating namespace')
    if (cmd.startsWith('d1 migrations apply')) return '✅ applied'
    if (args[0] === 'deploy' && args[1] === '--dry-run') {
      const out = args[3]!
      // A bundle of known size: incompressible bytes for the API, text for DoH; without the
      // production alias it contains the strict harness, as wrangler's bundle would.
      const harness = args.includes('--alias') ? '' : HARNESS_MARKER
      writeFileSync(
        path.join(out, 'index.js'),
        args.includes(API_CONFIG)
          ? Buffer.concat([crypto.getRandomValues(new Uint8Array(4000)), Buffer.from(harness)])
          : 'x'.repeat(4000) + harness
      )
      writeFileSync(path.join(out, 'index.js.map'), 'm'.repeat(100_000))
      return 'Total Upload'
    }
    if (args[0] === 'deploy') {
      const w = state.workers.get(worker) ?? { secrets: new Map(), config: '' }
      state.workers.set(worker, { ...w, config: read(config) })
      return `Uploaded ${worker}\nDeployed ${worker} triggers (1.2 sec)\n  https://${worker}.someone.workers.dev\nCurrent Version ID: x`
    }
    if (args[0] === 'secret') {
      const w = state.workers.get(worker)
      // As Cloudflare answers for a script that was never deployed.
      if (!w) throw new Error(`wrangler secret ${args[1]} failed (exit 1): [code: 10007]`)
      if (cmd === `secret list --format json -c ${config}`)
        return JSON.stringify([...w.secrets.keys()].map((name) => ({ name, type: 'secret_text' })))
      if (args[1] === 'put' && args.length === 5) {
        if (options.input === undefined) throw new Error('secret put without stdin')
        w.secrets.set(args[2]!, options.input.trim())
        return `✨ Success! Uploaded secret ${args[2]}`
      }
    }
    throw new Error(`unexpected wrangler command: ${cmd}`)
  }
  return {
    state,
    calls,
    run,
    get commands() {
      return calls.map((c) => c.args)
    },
    secretOf: (worker: string) => state.workers.get(worker)?.secrets.get(DNSSEC_SECRET),
  }
}

/** The temp directory holding this test's copies of the configs (a fresh one per test). */
export let root = ''
export const read = (f: string) => readFileSync(path.join(root, f), 'utf8')
export const secretFile = () => path.join(root, SECRET_FILE)

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'edgedns-deploy-test-'))
  for (const f of [API_CONFIG, DOH_CONFIG]) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true })
    copyFileSync(path.join(ROOT, f), path.join(root, f))
  }
})
afterEach(() => rmSync(root, { recursive: true, force: true }))
