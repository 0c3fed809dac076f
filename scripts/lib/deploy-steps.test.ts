/**
 * The deploy steps against a stubbed wrangler: a fake account (D1 databases, KV namespaces,
 * deployed workers and their secrets) that records every command it is given, with the stdin it
 * was fed, and answers with wrangler's JSON. The configs are copies of the repository's own, in a
 * temp directory.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { bootstrapMessage } from './bootstrap-token.mjs'
import {
  API_CONFIG,
  deploy,
  deployedMessage,
  deployedUrl,
  DeployError,
  DNSSEC_SECRET,
  DOH_CONFIG,
  dryRun,
  readCpuLimit,
  readIds,
  SECRET_FILE,
  // @ts-expect-error plain ESM module shared with scripts/deploy.mjs
} from './deploy-steps.mjs'
// @ts-expect-error plain ESM module
import { ROOT } from './stack.mjs'

const D1_ID = '6f1d7a8e-0c55-4b8e-9f0a-1b2c3d4e5f60'
const KV_ID = '0123456789abcdef0123456789abcdef'
const API_URL = 'https://edgedns-api.someone.workers.dev'
const DOH_URL = 'https://edgedns-doh.someone.workers.dev'
const WORKER_OF: Record<string, string> = {
  [API_CONFIG]: 'edgedns-api',
  [DOH_CONFIG]: 'edgedns-doh',
}

type Db = { uuid: string; name: string }
type Command = { args: string[]; input?: string }

/** A Cloudflare account as wrangler shows it, and the commands it was given. */
function fakeAccount(
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
      // A bundle of known size: incompressible bytes for the API, text for DoH.
      writeFileSync(
        path.join(out, 'index.js'),
        args.includes(API_CONFIG) ? crypto.getRandomValues(new Uint8Array(4000)) : 'x'.repeat(4000)
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

let root = ''
const read = (f: string) => readFileSync(path.join(root, f), 'utf8')
const secretFile = () => path.join(root, SECRET_FILE)

/** wrangler.toml with shards DB_1 and DB_2 bound as docs/shards.md says: no id yet. */
function addShards(...names: string[]) {
  const tables = names
    .map(
      (name, i) =>
        `[[d1_databases]]\nbinding = "DB_${i + 1}"\ndatabase_name = "${name}"\nmigrations_dir = "migrations"\n`
    )
    .join('\n')
  writeFileSync(
    path.join(root, API_CONFIG),
    read(API_CONFIG).replace('[[kv_namespaces]]', `${tables}\n[[kv_namespaces]]`)
  )
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'edgedns-deploy-test-'))
  for (const f of [API_CONFIG, DOH_CONFIG]) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true })
    copyFileSync(path.join(ROOT, f), path.join(root, f))
  }
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const DEPLOYS_AND_SECRETS = [
  ['deploy', '-c', 'wrangler.toml'],
  ['deploy', '-c', 'workers/doh/wrangler.jsonc'],
  ['secret', 'list', '--format', 'json', '-c', 'wrangler.toml'],
  ['secret', 'list', '--format', 'json', '-c', 'workers/doh/wrangler.jsonc'],
]

const EXPECTED_FIRST_RUN = [
  ['d1', 'list', '--json'],
  ['d1', 'create', 'edgedns'],
  ['d1', 'list', '--json'],
  ['kv', 'namespace', 'list'],
  ['kv', 'namespace', 'create', 'edgedns-zones'],
  ['kv', 'namespace', 'list'],
  ['d1', 'migrations', 'apply', 'edgedns', '--remote', '-c', 'wrangler.toml'],
  ...DEPLOYS_AND_SECRETS,
  ['secret', 'put', DNSSEC_SECRET, '-c', 'wrangler.toml'],
  ['secret', 'put', DNSSEC_SECRET, '-c', 'workers/doh/wrangler.jsonc'],
]

describe('pnpm run deploy', () => {
  it('on a fresh account: creates the database and the namespace, writes their ids into both configs, migrates, deploys the API then DoH', () => {
    const account = fakeAccount()
    const result = deploy({ run: account.run, root })
    expect(account.commands).toEqual(EXPECTED_FIRST_RUN)
    expect(result.d1).toEqual([{ binding: 'DB', name: 'edgedns', id: D1_ID, created: true }])
    expect(result.kv).toEqual({ id: KV_ID, created: true })
    expect(result.urls).toEqual({ 'edgedns-api': API_URL, 'edgedns-doh': DOH_URL })
    expect(readIds(root)).toEqual({
      d1: [{ file: API_CONFIG, binding: 'DB', id: D1_ID }],
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
    account.calls.length = 0
    const second = deploy({ run: account.run, root })
    expect(account.commands).toEqual([
      ['d1', 'list', '--json'],
      ['kv', 'namespace', 'list'],
      ['d1', 'migrations', 'apply', 'edgedns', '--remote', '-c', 'wrangler.toml'],
      ...DEPLOYS_AND_SECRETS,
    ])
    expect(account.state.d1).toHaveLength(1)
    expect(account.state.kv).toHaveLength(1)
    expect(second).toMatchObject({
      d1: [{ id: D1_ID, created: false }],
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

  it('deploys the API worker before the DoH worker, which binds its Durable Objects by script name', () => {
    const account = fakeAccount()
    deploy({ run: account.run, root })
    const deploys = account.commands.filter((c) => c[0] === 'deploy').map((c) => c.at(-1))
    expect(deploys).toEqual([API_CONFIG, DOH_CONFIG])
  })

  it('deploys the API worker with a CPU limit per invocation of four times the heaviest measured invocation', () => {
    const account = fakeAccount()
    deploy({ run: account.run, root })
    const deployed = account.state.workers.get('edgedns-api')!.config
    const cpuMs = Number(/^\[limits\]\ncpu_ms = (\d+)$/m.exec(deployed)?.[1])
    // Four times the CPU of the heaviest invocations the bench measured in the API isolate (a full
    // build's heaviest step, a cron run over 3 shards), within the Workers Paid maximum.
    const { build, cron } = JSON.parse(
      readFileSync(path.join(ROOT, 'bench/results/latest.json'), 'utf8')
    ).sections.isolate
    expect(cpuMs).toBeGreaterThanOrEqual(4 * Math.max(build.heaviest.cpuMs, cron.cpuMs))
    expect(cpuMs).toBeLessThanOrEqual(300_000)
    expect(readCpuLimit(root)).toBe(cpuMs)
  })
})

describe('pnpm run deploy: the DNSSEC secret', () => {
  it('first deploy: generates it into a private, git-ignored file and puts it on both workers through stdin, never printing it', () => {
    const account = fakeAccount()
    const lines: string[] = []
    const result = deploy({ run: account.run, root, log: (l: string) => lines.push(l) })
    const value = readFileSync(secretFile(), 'utf8').trim()
    // 256 random bits as URL-safe base64: what the workers accept (a string of 16+ characters).
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(statSync(secretFile()).mode & 0o777).toBe(0o600)
    expect(account.secretOf('edgedns-api')).toBe(value)
    expect(account.secretOf('edgedns-doh')).toBe(value)
    expect(account.calls.filter((c) => c.args[1] === 'put').map((c) => c.input?.trim())).toEqual([
      value,
      value,
    ])
    expect(result.secret).toEqual({ created: true, put: ['edgedns-api', 'edgedns-doh'] })
    // Never on a command line, never in what the deploy prints.
    expect(account.calls.flatMap((c) => c.args).join(' ')).not.toContain(value)
    expect(lines.join('\n')).not.toContain(value)
    expect(lines.join('\n')).toMatch(new RegExp(`${SECRET_FILE}.*BACK IT UP`))
    expect(readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain(
      `/${SECRET_FILE}`
    )
  })

  it('a re-deploy reuses the kept value: nothing is put while both workers hold it, and the file is not rewritten', () => {
    const account = fakeAccount()
    deploy({ run: account.run, root })
    const kept = readFileSync(secretFile(), 'utf8')
    account.calls.length = 0
    const lines: string[] = []
    const second = deploy({ run: account.run, root, log: (l: string) => lines.push(l) })
    expect(account.commands.filter((c) => c[0] === 'secret' && c[1] === 'put')).toEqual([])
    expect(second.secret).toEqual({ created: false, put: [] })
    expect(readFileSync(secretFile(), 'utf8')).toBe(kept)
    expect(lines.join('\n')).not.toContain(kept.trim())
  })

  it('a re-deploy puts the kept value on a worker that lacks it (deployed before the secret existed)', () => {
    const value = 'kept-value-from-an-earlier-deploy-0123456789'
    writeFileSync(secretFile(), `${value}\n`, { mode: 0o600 })
    const account = fakeAccount({
      secrets: { 'edgedns-api': [DNSSEC_SECRET], 'edgedns-doh': [] },
    })
    const result = deploy({ run: account.run, root })
    expect(result.secret).toEqual({ created: false, put: ['edgedns-doh'] })
    expect(account.secretOf('edgedns-doh')).toBe(value)
    // The API's value is left alone: a deploy never replaces a secret a worker holds.
    expect(account.secretOf('edgedns-api')).toBe('a value set before')
    expect(readFileSync(secretFile(), 'utf8')).toBe(`${value}\n`)
  })

  it('without the file while a worker holds the secret: refuses to overwrite it and says to restore the file', () => {
    const account = fakeAccount({ secrets: { 'edgedns-api': [DNSSEC_SECRET] } })
    expect(() => deploy({ run: account.run, root })).toThrow(DeployError)
    expect(() => deploy({ run: account.run, root })).toThrow(
      new RegExp(`set on edgedns-api.*Restore ${SECRET_FILE} from your backup`)
    )
    expect(account.commands.filter((c) => c[0] === 'secret' && c[1] === 'put')).toEqual([])
    expect(account.secretOf('edgedns-api')).toBe('a value set before')
    expect(existsSync(secretFile())).toBe(false)
  })
})

describe('pnpm run deploy: D1 shards', () => {
  it('creates every configured shard that is missing, writes its id into its own binding and migrates every shard', () => {
    addShards('edgedns-1', 'edgedns-2')
    const SHARD_1 = '11111111-0000-4000-8000-000000000001'
    const account = fakeAccount({ d1: [{ uuid: SHARD_1, name: 'edgedns-1' }] })
    const result = deploy({ run: account.run, root })
    expect(
      account.commands.filter((c) => c[0] === 'd1' && (c[1] === 'create' || c[1] === 'migrations'))
    ).toEqual([
      ['d1', 'create', 'edgedns'],
      ['d1', 'create', 'edgedns-2'],
      ['d1', 'migrations', 'apply', 'edgedns', '--remote', '-c', 'wrangler.toml'],
      ['d1', 'migrations', 'apply', 'edgedns-1', '--remote', '-c', 'wrangler.toml'],
      ['d1', 'migrations', 'apply', 'edgedns-2', '--remote', '-c', 'wrangler.toml'],
    ])
    const SHARD_2 = account.state.d1.find((d) => d.name === 'edgedns-2')!.uuid
    expect(result.d1.map((d: { created: boolean }) => d.created)).toEqual([true, false, true])
    expect(readIds(root).d1).toEqual([
      { file: API_CONFIG, binding: 'DB', id: D1_ID },
      { file: API_CONFIG, binding: 'DB_1', id: SHARD_1 },
      { file: API_CONFIG, binding: 'DB_2', id: SHARD_2 },
    ])
    expect(read(API_CONFIG)).toContain(
      `binding = "DB_2"\ndatabase_name = "edgedns-2"\ndatabase_id = "${SHARD_2}"\nmigrations_dir = "migrations"\n`
    )
    // The deployed worker binds every shard by its id.
    const deployed = account.state.workers.get('edgedns-api')!.config
    for (const id of [D1_ID, SHARD_1, SHARD_2]) expect(deployed).toContain(`database_id = "${id}"`)

    const configs = read(API_CONFIG)
    account.calls.length = 0
    deploy({ run: account.run, root })
    expect(account.commands.filter((c) => c[1] === 'create')).toEqual([])
    expect(account.commands.filter((c) => c[1] === 'migrations').map((c) => c[3])).toEqual([
      'edgedns',
      'edgedns-1',
      'edgedns-2',
    ])
    expect(read(API_CONFIG)).toBe(configs)
  })

  it('refuses shard bindings with a gap (the API would never use the shards after it) before touching the account', () => {
    addShards('edgedns-1', 'edgedns-2')
    writeFileSync(
      path.join(root, API_CONFIG),
      read(API_CONFIG).replace(/^binding = "DB_1"$/m, 'binding = "DB_3"')
    )
    const account = fakeAccount()
    expect(() => deploy({ run: account.run, root })).toThrow(/without gaps/)
    expect(account.calls).toEqual([])
  })
})

describe('pnpm run deploy: what it prints', () => {
  it('the real URLs of both workers and the exact bootstrap command, with no placeholder', () => {
    const account = fakeAccount()
    const { urls } = deploy({ run: account.run, root })
    const message = deployedMessage(urls)
    expect(message).toContain(API_URL)
    expect(message).toContain(`${DOH_URL}/dns-query`)
    expect(message).toContain(`pnpm run bootstrap --url ${API_URL}`)
    expect(message).toMatch(/port 53/)
    expect(message).not.toMatch(/[<>]/)
  })

  it('reads a custom domain when the worker has no workers.dev URL', () => {
    expect(
      deployedUrl(
        'Deployed edgedns-api triggers (0.5 sec)\n  dns.example.com (custom domain)\n  schedule: * * * * *'
      )
    ).toBe('https://dns.example.com')
    expect(
      deployedUrl(
        'Deployed edgedns-api triggers (0.5 sec)\n  example.com/* (zone name: example.com)'
      )
    ).toBe(null)
  })

  it('the bootstrap prints a curl command against the API URL it was given', () => {
    const message = bootstrapMessage({ id: 'a'.repeat(32), secret: 's3cret', url: `${API_URL}/` })
    expect(message).toContain(
      `curl -H 'Authorization: Bearer s3cret' ${API_URL}/client/v4/accounts`
    )
    expect(message).not.toMatch(/[<>]/)
    expect(bootstrapMessage({ id: 'a'.repeat(32), secret: 's3cret' })).not.toMatch(/[<>]/)
  })
})

describe('pnpm run deploy --dry-run', () => {
  it('bundles both workers without an account and measures them without source maps', () => {
    const account = fakeAccount()
    const outdir = path.join(root, 'out')
    const lines: string[] = []
    const bundles = dryRun({ run: account.run, root, outdir, log: (l: string) => lines.push(l) })
    expect(account.commands.map((c) => [c[0], c[1], c.at(-1)])).toEqual([
      ['deploy', '--dry-run', API_CONFIG],
      ['deploy', '--dry-run', DOH_CONFIG],
    ])
    expect(bundles.map((b: { name: string; raw: number }) => [b.name, b.raw])).toEqual([
      ['edgedns-api', 4000],
      ['edgedns-doh', 4000],
    ])
    expect(bundles[1].gzip).toBeLessThan(200)
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
    expect(ok.map((b: { overFree: boolean }) => b.overFree)).toEqual([true, false])
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

  it('refuses an API config without its CPU limit', () => {
    writeFileSync(path.join(root, API_CONFIG), read(API_CONFIG).replace(/^cpu_ms = .*$/m, ''))
    expect(() => dryRun({ run: fakeAccount().run, root, outdir: path.join(root, 'out') })).toThrow(
      /no \[limits\] cpu_ms/
    )
  })
})
