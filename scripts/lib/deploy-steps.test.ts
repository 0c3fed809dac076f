/**
 * The deploy steps against a stubbed wrangler: a fake account (D1 databases, KV namespaces) that
 * records every command it is given and answers with wrangler's JSON. The configs are copies of
 * the repository's own, in a temp directory.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module shared with scripts/deploy.mjs
import { API_CONFIG, deploy, DeployError, DOH_CONFIG, dryRun, readIds } from './deploy-steps.mjs'
// @ts-expect-error plain ESM module
import { ROOT } from './stack.mjs'

const D1_ID = '6f1d7a8e-0c55-4b8e-9f0a-1b2c3d4e5f60'
const KV_ID = '0123456789abcdef0123456789abcdef'

/** A Cloudflare account as wrangler shows it, and the commands it was given. */
function fakeAccount(
  initial: { d1?: { uuid: string; name: string }[]; kv?: { id: string; title: string }[] } = {}
) {
  const state = { d1: [...(initial.d1 ?? [])], kv: [...(initial.kv ?? [])] }
  const commands: string[][] = []
  const run = (args: string[]): string => {
    commands.push(args)
    const cmd = args.join(' ')
    if (cmd === 'd1 list --json') return JSON.stringify(state.d1)
    if (cmd === 'd1 create edgedns')
      return (state.d1.push({ uuid: D1_ID, name: 'edgedns' }), '✅ Successfully created DB')
    if (cmd === 'kv namespace list') return JSON.stringify(state.kv)
    if (cmd === 'kv namespace create edgedns-zones')
      return (state.kv.push({ id: KV_ID, title: 'edgedns-zones' }), 'Creating namespace')
    if (cmd.startsWith('d1 migrations apply')) return '✅ applied'
    if (args[0] === 'deploy' && args[1] === '--dry-run') {
      const out = args[3]!
      // A bundle of known size: incompressible bytes for the API, text for DoH.
      writeFileSync(
        path.join(out, 'index.js'),
        args.includes(API_CONFIG) ? crypto.getRandomValues(new Uint8Array(4000)) : 'x'.repeat(4000)
      )
      writeFileSync(path.join(out, 'index.js.map'), 'm'.repeat(100_000))
      return 'Total Upload'
    }
    if (args[0] === 'deploy')
      return `Uploaded\n  https://${args.includes(API_CONFIG) ? 'edgedns-api' : 'edgedns-doh'}.someone.workers.dev\nCurrent Version ID: x`
    throw new Error(`unexpected wrangler command: ${cmd}`)
  }
  return { state, commands, run }
}

let root = ''
const read = (f: string) => readFileSync(path.join(root, f), 'utf8')

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'edgedns-deploy-test-'))
  for (const f of [API_CONFIG, DOH_CONFIG]) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true })
    copyFileSync(path.join(ROOT, f), path.join(root, f))
  }
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const EXPECTED_FIRST_RUN = [
  ['d1', 'list', '--json'],
  ['d1', 'create', 'edgedns'],
  ['d1', 'list', '--json'],
  ['kv', 'namespace', 'list'],
  ['kv', 'namespace', 'create', 'edgedns-zones'],
  ['kv', 'namespace', 'list'],
  ['d1', 'migrations', 'apply', 'edgedns', '--remote', '-c', 'wrangler.toml'],
  ['deploy', '-c', 'workers/doh/wrangler.jsonc'],
  ['deploy', '-c', 'wrangler.toml'],
]

describe('pnpm run deploy', () => {
  it('on a fresh account: creates the database and the namespace, writes their ids into both configs, migrates, deploys DoH then the API', () => {
    const account = fakeAccount()
    const result = deploy({ run: account.run, root })
    expect(account.commands).toEqual(EXPECTED_FIRST_RUN)
    expect(result.d1).toEqual({ id: D1_ID, created: true })
    expect(result.kv).toEqual({ id: KV_ID, created: true })
    expect(result.urls).toEqual({
      'edgedns-doh': 'https://edgedns-doh.someone.workers.dev',
      'edgedns-api': 'https://edgedns-api.someone.workers.dev',
    })
    expect(readIds(root)).toEqual({
      d1: [{ file: API_CONFIG, id: D1_ID }],
      kv: [
        { file: API_CONFIG, id: KV_ID },
        { file: DOH_CONFIG, id: KV_ID },
      ],
    })
    // The local ids stay: `wrangler dev` keeps its local state after a deploy.
    expect(read(API_CONFIG)).toContain(
      'preview_database_id = "00000000-0000-4000-8000-00000000d1d1"'
    )
    expect(read(API_CONFIG)).toContain('preview_id = "edgedns-zones"')
    expect(read(DOH_CONFIG)).toContain('"preview_id": "edgedns-zones"')
  })

  it('a second run creates nothing, keeps the ids and leaves the configs byte for byte as they were', () => {
    const account = fakeAccount()
    deploy({ run: account.run, root })
    const configs = [read(API_CONFIG), read(DOH_CONFIG)]
    account.commands.length = 0
    const second = deploy({ run: account.run, root })
    expect(account.commands).toEqual([
      ['d1', 'list', '--json'],
      ['kv', 'namespace', 'list'],
      ['d1', 'migrations', 'apply', 'edgedns', '--remote', '-c', 'wrangler.toml'],
      ['deploy', '-c', 'workers/doh/wrangler.jsonc'],
      ['deploy', '-c', 'wrangler.toml'],
    ])
    expect(account.state.d1).toHaveLength(1)
    expect(account.state.kv).toHaveLength(1)
    expect(second).toMatchObject({
      d1: { id: D1_ID, created: false },
      kv: { id: KV_ID, created: false },
      written: [],
    })
    expect([read(API_CONFIG), read(DOH_CONFIG)]).toEqual(configs)
  })

  it('finds resources that exist already by name, among others', () => {
    const account = fakeAccount({
      d1: [
        { uuid: 'aaaaaaaa-0000-4000-8000-000000000000', name: 'other' },
        { uuid: D1_ID, name: 'edgedns' },
      ],
      kv: [
        { id: 'f'.repeat(32), title: 'edgedns-zones-preview' },
        { id: KV_ID, title: 'edgedns-zones' },
      ],
    })
    const result = deploy({ run: account.run, root })
    expect(account.commands.filter((c) => c.includes('create'))).toEqual([])
    expect(result.written).toEqual([API_CONFIG, DOH_CONFIG])
    expect(readIds(root).kv.map((s: { id: string }) => s.id)).toEqual([KV_ID, KV_ID])
  })

  it('says how to log in when wrangler cannot reach the account, and changes nothing', () => {
    const before = read(API_CONFIG)
    const run = () => {
      throw new Error('wrangler d1 list failed (exit 1): Not logged in')
    }
    expect(() => deploy({ run, root })).toThrow(/wrangler login/)
    expect(read(API_CONFIG)).toBe(before)
  })
})

describe('pnpm run deploy --dry-run', () => {
  it('bundles both workers without an account and measures them without source maps', () => {
    const account = fakeAccount()
    const outdir = path.join(root, 'out')
    const lines: string[] = []
    const bundles = dryRun({ run: account.run, root, outdir, log: (l: string) => lines.push(l) })
    expect(account.commands.map((c) => [c[0], c[1], c.at(-1)])).toEqual([
      ['deploy', '--dry-run', DOH_CONFIG],
      ['deploy', '--dry-run', API_CONFIG],
    ])
    expect(bundles.map((b: { name: string; raw: number }) => [b.name, b.raw])).toEqual([
      ['edgedns-doh', 4000],
      ['edgedns-api', 4000],
    ])
    expect(bundles[0].gzip).toBeLessThan(200)
    expect(lines.join('\n')).toMatch(/edgedns-api\s+3\.9 KiB raw/)
  })

  it('fails a bundle over the Paid limit and flags one over the Free limit', () => {
    const account = fakeAccount()
    const limits = { free: 1000, paid: 3000 }
    const lines: string[] = []
    expect(() =>
      dryRun({
        run: account.run,
        root,
        outdir: path.join(root, 'out'),
        limits,
        log: (l: string) => lines.push(l),
      })
    ).toThrow(/edgedns-api/)
    expect(lines.join('\n')).toMatch(/edgedns-api.*OVER the Paid limit/)
    const ok = dryRun({
      run: fakeAccount().run,
      root,
      outdir: path.join(root, 'out2'),
      limits: { free: 1000, paid: 10_000 },
    })
    expect(ok.map((b: { overFree: boolean }) => b.overFree)).toEqual([false, true])
  })

  it('refuses configs that bind different KV namespaces', () => {
    writeFileSync(
      path.join(root, DOH_CONFIG),
      read(DOH_CONFIG).replace('"id": "edgedns-zones"', '"id": "another"')
    )
    expect(() => dryRun({ run: fakeAccount().run, root, outdir: path.join(root, 'out') })).toThrow(
      DeployError
    )
  })
})
