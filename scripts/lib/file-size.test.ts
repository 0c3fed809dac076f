/**
 * No hand-written source file grows past MAX_LINES: a file that long holds more than one job and is
 * split by job. Generated files are listed in GENERATED and exempt.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { ROOT } from './stack.mjs'

const MAX_LINES = 400

/** Files written by tools, not people; each says how it is regenerated. */
const GENERATED = new Set([
  'packages/sdk/src/api-types.generated.ts', // scripts/sdk-types
  'workers/api/src/db/bundled-migrations.ts', // pnpm db:generate
  'workers/api/worker-configuration.d.ts', // wrangler types
  'workers/dashboard/public/app.js', // pnpm --filter @edgedns/dashboard build
])

const SOURCE = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/

function trackedSources(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  return out.split('\0').filter((file) => SOURCE.test(file) && !GENERATED.has(file))
}

function lineCount(file: string): number {
  const text = readFileSync(path.join(ROOT, file), 'utf8')
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

describe('source file size', () => {
  it(`keeps every non-generated source file at ${MAX_LINES} lines or fewer`, () => {
    const tooLong = trackedSources()
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`)
    expect(tooLong).toEqual([])
  })

  it('lists only generated files that exist', () => {
    const tracked = new Set(
      execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n')
    )
    expect([...GENERATED].filter((file) => !tracked.has(file))).toEqual([])
  })
})
