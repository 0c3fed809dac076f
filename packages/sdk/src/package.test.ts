/**
 * The published package, as a user gets it: `npm pack` (which builds dist/ first), installed from
 * the tarball into a plain Node project outside the workspace, then imported by Node, type-checked
 * by TypeScript against the shipped declarations, and its `edgedns` CLI run.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const SDK = resolve(import.meta.dirname, '..')
const REPO = resolve(SDK, '../..')
const NODE = join(REPO, 'node_modules/.bin/node')
const TSC = join(REPO, 'node_modules/typescript/bin/tsc')

/** The environment without the npm settings a parent `pnpm` exports (npm warns about them). */
const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_config_'))
) as NodeJS.ProcessEnv

function run(command: string, args: string[], options: SpawnSyncOptions): string {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 120_000, env: ENV, ...options })
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`)
  return String(r.stdout)
}

const CONSUMER = `
import { decodeMessage, EdgeDns, EdgeDnsError, encodeQuery } from '@edgedns/sdk'

const answer = { id: '0'.repeat(32), name: 'www.example.com', type: 'A', content: '192.0.2.1' }
const dns = new EdgeDns({
  baseUrl: 'http://edgedns.invalid',
  token: 't',
  fetch: async (url, init) =>
    String(url).endsWith('/dns_records')
      ? Response.json({ success: true, errors: [], messages: [], result: { ...answer, ...JSON.parse(init.body) } }, { headers: { 'x-edgedns-change-seq': '7' } })
      : Response.json({ success: false, errors: [{ code: 7003, message: 'Zone not found' }], messages: [], result: null }, { status: 404 }),
})
const record = await dns.records.create('z', { type: 'A', name: 'www.example.com', content: '192.0.2.1' })
const failure = await dns.zones.get('missing').catch((e) => e)
console.log(JSON.stringify({
  record: record.content,
  seq: record.changeSeq,
  error: failure instanceof EdgeDnsError ? [failure.status, failure.code] : String(failure),
  question: decodeMessage(encodeQuery('example.com', 'AAAA')).question.map((q) => q.name.replace(/\\.$/, '') + ' ' + q.type),
}))
`

const TYPED_CONSUMER = `
import { EdgeDns, type DnsRecord, type NewRecord, type Zone } from '@edgedns/sdk'

const dns: EdgeDns = new EdgeDns({ baseUrl: 'http://edgedns.invalid' })
const post: NewRecord = { type: 'mx', name: 'example.com', content: 'mx.example.com', priority: 10 }
export async function firstZoneRecords(): Promise<[Zone, DnsRecord] | null> {
  for await (const zone of dns.zones.list()) {
    for await (const record of dns.records.list(zone.id, { type: 'A' })) return [zone, record]
  }
  await dns.records.create('z', post)
  return null
}
// @ts-expect-error: the declarations know the record types
export const wrong: NewRecord = { type: 'NOPE', name: 'x' }
`

describe('the packed SDK', () => {
  let dir: string

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'edgedns-sdk-consumer-'))
    const packed = join(dir, 'packed')
    mkdirSync(packed)
    run('npm', ['pack', '--silent', '--pack-destination', packed], { cwd: SDK })
    const tarball = join(
      packed,
      readdirSync(packed).find((f) => f.endsWith('.tgz'))!
    )
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' })
    )
    run('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: dir,
    })
  }, 180_000)

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('loads in a plain Node project and talks to the API through the fetch it is given', () => {
    writeFileSync(join(dir, 'consumer.mjs'), CONSUMER)
    const out = JSON.parse(run(NODE, ['consumer.mjs'], { cwd: dir }))
    expect(out).toEqual({
      record: '192.0.2.1',
      seq: 7,
      error: [404, 7003],
      question: ['example.com AAAA'],
    })
  })

  it('ships declarations that type-check a TypeScript consumer', () => {
    writeFileSync(join(dir, 'consumer.ts'), TYPED_CONSUMER)
    const tsconfig = {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2023', 'dom'],
        types: [],
        strict: true,
        noEmit: true,
      },
      files: ['consumer.ts'],
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig))
    run(NODE, [TSC, '-p', 'tsconfig.json'], { cwd: dir })
  })

  it('installs the edgedns CLI, which runs from the build', () => {
    const usage = run(NODE, [join(dir, 'node_modules/@edgedns/sdk/bin/edgedns.mjs'), '--help'], {
      cwd: dir,
    })
    expect(usage).toContain('usage: edgedns <command>')
    expect(readdirSync(join(dir, 'node_modules/@edgedns/sdk')).sort()).toEqual([
      'README.md',
      'bin',
      'dist',
      'package.json',
    ])
  })
})
