/**
 * @module Renders `migrations/*.sql` as a TypeScript module (`workers/api/src/db/bundled-migrations.ts`)
 * so the API worker carries its own schema: under `wrangler dev` it applies pending migrations to an
 * empty local database by itself (see workers/api/src/db/local-migrations.ts). Statements are split
 * on drizzle's `--> statement-breakpoint` markers; a file without markers is one statement.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

export const BUNDLE_PATH = 'workers/api/src/db/bundled-migrations.ts'

/** The statements of one migration file, comment-only pieces dropped. */
export function splitStatements(sql) {
  return sql
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter((s) =>
      s.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('--'))
    )
}

/** The module text for the migrations in `dir` (sorted by file name, as wrangler applies them). */
export function renderBundle(dir) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
  const entries = files.map((name) => ({
    name,
    statements: splitStatements(readFileSync(path.join(dir, name), 'utf8')),
  }))
  return `// Generated from migrations/*.sql by \`pnpm db:generate\` (scripts/lib/bundle-migrations.mjs). Do not edit.
/** D1 migrations in the order wrangler applies them, each split into its statements. */
export const BUNDLED_MIGRATIONS: readonly { name: string; statements: readonly string[] }[] = ${JSON.stringify(entries, null, 2)}
`
}
