/**
 * The worker's bundled migrations are the repository's migrations: a migration added without
 * `pnpm db:generate` (which rewrites the bundle) fails here.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { BUNDLE_PATH, renderBundle, splitStatements } from './bundle-migrations.mjs'
// @ts-expect-error plain ESM module
import { ROOT } from './stack.mjs'

describe('bundled migrations', () => {
  it('match migrations/*.sql', () => {
    expect(readFileSync(path.join(ROOT, BUNDLE_PATH), 'utf8')).toBe(
      renderBundle(path.join(ROOT, 'migrations'))
    )
  })

  it('split on statement breakpoints and drop comment-only pieces', () => {
    expect(
      splitStatements(
        'CREATE TABLE a (x);--> statement-breakpoint\n-- note\nINSERT INTO a VALUES (1);\n--> statement-breakpoint\n-- only a comment\n'
      )
    ).toEqual(['CREATE TABLE a (x);', '-- note\nINSERT INTO a VALUES (1);'])
  })
})
