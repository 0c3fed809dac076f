/**
 * `pnpm run deploy` against a stubbed wrangler (./test-deploy-account.ts): what it creates, reuses
 * and deploys, in which order, and what it prints.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { bootstrapMessage } from './bootstrap-token.mjs'
import {
  API_CONFIG,
  deploy,
  deployedMessage,
  deployedUrl,
  DNSSEC_SECRET,
  DOH_CONFIG,
  PRODUCTION_ALIAS,
  readCpuLimit,
  readIds,
  // @ts-expect-error plain ESM module
} from './deploy-steps.mjs'
// @ts-expect-error plain ESM module
import { ROOT } from './stack.mjs'
import { API_URL, D1_ID, DOH_URL, fakeAccount, KV_ID, read, root } from './test-deploy-account.ts'

const DEPLOYS_AND_SECRETS = [
  ['deploy', ...PRODUCTION_ALIAS, '-c', 'wrangler.toml'],
  ['deploy', ...PRODUCTION_ALIAS, '-c', 'workers/doh/wrangler.jsonc'],
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

describe('pnpm run deploy: what it prints', () => {
  it('the real URLs of both workers and the exact bootstrap command, with no placeholder', () => {
    const account = fakeAccount()
    const { urls } = deploy({ run: account.run, root })
    const message = deployedMessage(urls)
    expect(message).toContain(API_URL)
    expect(message).toContain(`${DOH_URL}/dns-query`)
    expect(message).toContain(`pnpm run bootstrap --url ${API_URL}`)
    expect(message).toMatch(/port 53/)
    expect(message).toContain('pnpm build:dns-front')
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
