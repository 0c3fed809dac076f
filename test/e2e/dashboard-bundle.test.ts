/**
 * The committed dashboard bundle (workers/dashboard/public/app.js, served by the API worker and by
 * `pnpm dev`) is exactly what workers/dashboard/build.mjs makes from workers/dashboard/src.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM build script
import { bundle, OUTFILE } from '../../workers/dashboard/build.mjs'

describe('dashboard bundle', () => {
  it('is up to date with its sources (run `pnpm --filter @edgedns/dashboard build`)', async () => {
    const fresh: string = await bundle()
    expect(fresh.length).toBeGreaterThan(10_000)
    expect(
      readFileSync(OUTFILE, 'utf8') === fresh,
      'workers/dashboard/public/app.js is stale: run pnpm --filter @edgedns/dashboard build'
    ).toBe(true)
  })
})
