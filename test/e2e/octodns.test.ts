/**
 * octoDNS round trip: octodns-cloudflare, with its default provider settings, applies a zone holding
 * every record type it manages through Cloudflare to the real local stack; a second plan against
 * the result must be empty (the API answers what octoDNS wrote, in the form it compares).
 * octoDNS comes from PyPI into a virtual environment in the tool cache (tools/cache.ts); without
 * python3 and its venv module the test is skipped, saying so.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ensureVenv, missingPython } from './tools/python-venv.ts'
import { stackApi } from './tools/stack-api.ts'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const PACKAGES = ['octodns==1.22.0', 'octodns-cloudflare==1.2.0']
let python = ''

const base = inject('stackBase')
const token = inject('stackToken')

const skipReason = missingPython()
let work = ''

beforeAll(async () => {
  if (skipReason === null) python = path.join(await ensureVenv('octodns', PACKAGES), 'python')
  work = mkdtempSync(path.join(tmpdir(), 'edgedns-octodns-'))
}, 300_000)

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true })
})

describe('octoDNS with octodns-cloudflare against the local stack', () => {
  it('applies every supported record type, then plans no changes', async (ctx) => {
    if (skipReason !== null) ctx.skip(`octoDNS round trip skipped: ${skipReason}`)
    const zone = `octodns-${Date.now().toString(36)}.example`
    const accounts = await stackApi('GET', '/accounts')
    const created = await stackApi('POST', '/zones', {
      name: zone,
      account: { id: accounts.result[0].id },
    })
    expect(created.success, JSON.stringify(created)).toBe(true)

    const zones = path.join(work, 'zones')
    mkdirSync(zones)
    copyFileSync(path.join(HERE, 'octodns/zone.yaml'), path.join(zones, `${zone}.yaml`))
    const config = path.join(work, 'config.yaml')
    writeFileSync(
      config,
      [
        'providers:',
        '  config:',
        '    class: octodns.provider.yaml.YamlProvider',
        `    directory: ${zones}`,
        '    enforce_order: false',
        '  cloudflare:',
        '    class: octodns_cloudflare.CloudflareProvider',
        '    token: env/EDGEDNS_TOKEN',
        `    api_url: ${base}/client/v4`,
        'zones:',
        `  ${zone}.:`,
        '    sources: [config]',
        '    targets: [cloudflare]',
        '',
      ].join('\n')
    )
    const run = spawnSync(python, [path.join(HERE, 'octodns/roundtrip.py'), config, `${zone}.`], {
      encoding: 'utf8',
      env: { ...process.env, EDGEDNS_TOKEN: token },
      timeout: 60_000,
    })
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    const counts = JSON.parse(run.stdout.trim().split('\n').pop()!) as {
      applied: number
      second_plan: number
    }
    expect(counts.applied).toBe(17)
    expect(counts.second_plan, run.stderr).toBe(0)

    const records = (await stackApi('GET', `/zones/${created.result.id}/dns_records?per_page=100`))
      .result as any[]
    expect(new Set(records.map((r) => r.type))).toEqual(
      new Set([
        'CNAME',
        'A',
        'AAAA',
        'TXT',
        'MX',
        'CAA',
        'LOC',
        'SSHFP',
        'HTTPS',
        'SVCB',
        'SRV',
        'NAPTR',
        'PTR',
        'NS',
        'DS',
        'TLSA',
      ])
    )
    expect(records.find((r) => r.type === 'SVCB').data.target).toBe('pool.example.net.')
  })
})
