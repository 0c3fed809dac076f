/**
 * The README's "Platform limits" and "Settings" tables against the values the code uses: every
 * figure in a checked cell must be one the code (or wrangler.toml) gives, so a changed default or a
 * stale figure fails here.
 */
import { describe, expect, it } from 'vitest'
import { MAX_MESSAGE } from '../../packages/dns-wire/src/index.ts'
import readme from '../../README.md?raw'
import wranglerToml from '../../wrangler.toml?raw'
// @ts-expect-error plain ESM module shared with scripts/deploy.mjs
import { PLAN_LIMITS } from '../../scripts/lib/deploy-steps.mjs'
import { limitsFrom } from '../../workers/api/src/builder/limits.ts'
import { SWEEP_LIMIT } from '../../workers/api/src/builder/sweep.ts'
import { MAX_CHUNK_CHARS } from '../../workers/api/src/db/json-chunks.ts'
import { DEFAULT_RETENTION_DAYS } from '../../workers/api/src/cron/change-log-retention.ts'
import { RECONCILE_INTERVAL_MS, SERVED_PAGE } from '../../workers/api/src/feed/reconcile.ts'
import { Codes } from '../../workers/api/src/http/api-error.ts'
import { DEFAULT_MAX_BODY_BYTES } from '../../workers/api/src/http/body-limit.ts'
import {
  DEFAULT_API_RATE_LIMIT,
  RATE_LIMIT_WINDOW_S,
} from '../../workers/api/src/http/token-rate-limit.ts'
import { PRODUCTION_LIMITS } from '@edgedns/platform-limits'
import { DEFAULT_DISABLE_GRACE } from '../../workers/api/src/routes/dnssec.ts'
import { DEFAULT_MAX_BATCH_CHANGES } from '../../workers/api/src/routes/records.ts'
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_RECORDS,
} from '../../workers/api/src/zonefile-bridge/limits.ts'
import { ROWS_PER_STATEMENT } from '../../workers/api/src/zonefile-bridge/staged-import.ts'
import { DEFAULT_RESOLVER } from '../../workers/api/src/zones/resolver.ts'

/** The rows of the first table under a heading, by their first cell (code marks removed). */
function table(heading: string): Map<string, string[]> {
  const start = readme.indexOf(`\n${heading}\n`)
  if (start < 0) throw new Error(`README has no heading ${heading}`)
  const lines = readme.slice(start).split('\n')
  const first = lines.findIndex((l) => l.startsWith('|'))
  const rows = new Map<string, string[]>()
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim())
    rows.set(cells[0]!.replaceAll('`', ''), cells.slice(1))
  }
  return rows
}

const UNITS = 'MiB|MB|KB|GB|bytes|per second|days|minutes|s'
/**
 * Every figure of a cell, with its unit when it has one, leaving out code spans (names, paths)
 * and link targets: `32 MiB`, `3,500`, `5 minutes`.
 */
function figures(cell: string): string[] {
  const prose = cell.replace(/`[^`]*`/g, ' ').replace(/\]\([^)]*\)/g, ']')
  const found = prose.match(new RegExp(`(?<![\\w.])\\d[\\d,.]*(?: (?:${UNITS})\\b)?`, 'g')) ?? []
  return found.map((f) => f.replace(/[.,]$/, '')).sort()
}

const n = (x: number) => x.toLocaleString('en-US')
const mib = (bytes: number) => `${bytes / 2 ** 20} MiB`
/** wrangler.toml's `[vars]`: `NAME = "value"` lines. */
const vars = new Map(
  [...(wranglerToml.split(/^\[vars\]$/m)[1] ?? '').matchAll(/^([A-Z_0-9]+) = "([^"]*)"$/gm)].map(
    (m) => [m[1]!, m[2]!]
  )
)
const builder = limitsFrom({})

describe('README platform limits table', () => {
  const rows = table('### Platform limits and where the code keeps to them')
  /** [row, figures of "value", figures of "where"]; null: a platform figure the code does not hold. */
  const expected: [string, string[] | null, string[]][] = [
    [
      'Worker size (compressed)',
      [`${PLAN_LIMITS.free / 2 ** 20} MB`, `${PLAN_LIMITS.paid / 2 ** 20} MB`],
      [],
    ],
    [
      'Request body',
      null,
      [mib(DEFAULT_MAX_BODY_BYTES), '413', String(Codes.bodyTooLarge), mib(IMPORT_MAX_BYTES)],
    ],
    ['Changes per batch', [], [n(DEFAULT_MAX_BATCH_CHANGES), '81063', n(IMPORT_MAX_RECORDS)]],
    ['D1 bound parameters per statement', [String(PRODUCTION_LIMITS.d1BoundParameters)], []],
    ['D1 string or row size', [`${PRODUCTION_LIMITS.d1ValueBytes / 1e6} MB`], [n(MAX_CHUNK_CHARS)]],
    ['D1 statement length', [`${PRODUCTION_LIMITS.d1StatementBytes / 1e3} KB`], []],
    ['D1 LIKE pattern', [`${PRODUCTION_LIMITS.d1LikePatternBytes} bytes`], []],
    // A measured time sits beside the configured figures: the 100,000-record commit's.
    ['D1 query duration', null, [n(ROWS_PER_STATEMENT), n(IMPORT_MAX_RECORDS)]],
    ['D1 database size', null, [String(DEFAULT_RETENTION_DAYS)]],
    ['KV writes per key', [`${1000 / PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs} per second`], []],
    ['KV operations per invocation', [n(PRODUCTION_LIMITS.kvOpsPerInvocation)], []],
    ['DoH message', [`${n(MAX_MESSAGE)} bytes`], ['413']],
    [
      'Subrequests per invocation',
      null,
      [n(SWEEP_LIMIT), n(SERVED_PAGE), `${RECONCILE_INTERVAL_MS / 60_000} minutes`],
    ],
    [
      'Failed authentications, full rebuilds, activation checks, requests per token',
      [n(DEFAULT_API_RATE_LIMIT), `${RATE_LIMIT_WINDOW_S / 60} minutes`],
      [],
    ],
  ]

  it.each(expected)('%s: its figures are the code’s', (name, value, where) => {
    const row = rows.get(name)
    expect(row, `README row "${name}"`).toBeDefined()
    if (value !== null) expect(figures(row![0]!)).toEqual([...value].sort())
    expect(figures(row![1]!)).toEqual([...where].sort())
  })

  it('checks every row of the table', () => {
    expect([...rows.keys()].sort()).toEqual(expected.map(([name]) => name).sort())
  })

  it('states the limits the code keeps to as the code keeps them', () => {
    expect(builder.maxKvOps).toBeLessThanOrEqual(PRODUCTION_LIMITS.kvOpsPerInvocation)
    expect(builder.keyWriteIntervalMs).toBe(PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs)
  })
})

describe('README settings table', () => {
  const rows = table('### Settings')
  const defaults: [string, string][] = [
    ['NAME_SERVERS', vars.get('NAME_SERVERS')!],
    ['PROXY_IPV4, PROXY_IPV6', `${vars.get('PROXY_IPV4')}; ${vars.get('PROXY_IPV6')}`],
    ['ZONE_VERIFICATION', vars.get('ZONE_VERIFICATION')!],
    ['VERIFICATION_RESOLVER', DEFAULT_RESOLVER],
    ['MAX_BATCH_CHANGES', n(DEFAULT_MAX_BATCH_CHANGES)],
    ['MAX_BODY_BYTES', mib(DEFAULT_MAX_BODY_BYTES)],
    ['MAX_IMPORT_BYTES, MAX_IMPORT_RECORDS', `${mib(IMPORT_MAX_BYTES)}, ${n(IMPORT_MAX_RECORDS)}`],
    ['CHANGE_LOG_RETENTION_DAYS', String(DEFAULT_RETENTION_DAYS)],
    ['DNSSEC_DISABLE_GRACE_SECONDS', n(DEFAULT_DISABLE_GRACE)],
  ]

  it.each(defaults)('%s: the default is the code’s', (name, value) => {
    const row = rows.get(name)
    expect(row, `README row "${name}"`).toBeDefined()
    expect(row![0]!.replaceAll('`', '')).toMatch(new RegExp(`^${escape(value)}( |$)`))
  })

  it('matches what wrangler.toml deploys', () => {
    expect(vars.get('VERIFICATION_RESOLVER')).toBe(DEFAULT_RESOLVER)
    expect(Number(vars.get('MAX_BATCH_CHANGES'))).toBe(DEFAULT_MAX_BATCH_CHANGES)
    expect(Number(vars.get('MAX_BODY_BYTES'))).toBe(DEFAULT_MAX_BODY_BYTES)
  })

  it('gives the account rate limit the code’s default', () => {
    const row = rows.get('account max_dns_batch_changes, api_rate_limit')
    expect(row?.[0]).toContain(
      `${n(DEFAULT_API_RATE_LIMIT)} per ${RATE_LIMIT_WINDOW_S / 60} minutes`
    )
  })
})

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

describe('README deploy section', () => {
  const deploy = readme.slice(
    readme.indexOf('### Deploy in one command'),
    readme.indexOf('### Settings')
  )

  it('installs first, names the placeholders, passes the API URL to the bootstrap', () => {
    expect(deploy).toMatch(/pnpm@10 install +# first/)
    for (const name of ['NAME_SERVERS', 'PROXY_IPV4', 'PROXY_IPV6'])
      expect(deploy).toContain(`\`${name}\``)
    expect(deploy).toContain('placeholders')
    expect(deploy).toMatch(/run bootstrap --url https:\/\/\S+/)
    expect(deploy).not.toContain('<your API>')
  })

  it('says that nothing answers DNS on port 53 after a deploy', () => {
    expect(deploy).toContain('Nothing answers DNS on port 53 after a deploy')
  })
})

describe('README limits: what the code does, not what it once did', () => {
  const rows = table('### Platform limits and where the code keeps to them')

  it('says the change log is pruned by the cron, and that no D1 query uses LIKE', () => {
    expect(rows.get('D1 database size')?.[1]).toContain('the cron removes')
    expect(rows.get('D1 LIKE pattern')?.[1]).toMatch(/^no `LIKE` at all/)
    expect(readme).not.toMatch(/not enforced yet|not pruned/)
  })
})
