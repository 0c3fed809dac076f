/**
 * `pnpm run deploy --dry-run`, against a stubbed wrangler (./test-deploy-account.ts): bundles both
 * workers without an account, measures them against the plan limits, checks the configs.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  API_CONFIG,
  deploy,
  DeployError,
  DOH_CONFIG,
  dryRun,
  PRODUCTION_ALIAS,
  // @ts-expect-error plain ESM module
} from './deploy-steps.mjs'
import { fakeAccount, read, root } from './test-deploy-account.ts'

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

  it('bundles for production without the strict test harness, and refuses a bundle that has it', () => {
    const account = fakeAccount()
    dryRun({ run: account.run, root, outdir: path.join(root, 'out') })
    for (const c of account.commands) expect(c.join(' ')).toContain(PRODUCTION_ALIAS.join(' '))
    // Bundled without the alias (as wrangler dev and the tests bundle), the harness is in it.
    const withoutAlias = (args: string[]) =>
      account.run(args.filter((a, i) => a !== '--alias' && args[i - 1] !== '--alias'))
    expect(() => dryRun({ run: withoutAlias, root, outdir: path.join(root, 'out3') })).toThrow(
      /strict test harness/
    )
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
