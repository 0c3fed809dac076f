/**
 * @module Local development only: an empty local D1 database gets the bundled migrations applied by
 * the worker itself, so `npx wrangler dev` on a fresh state directory serves the API with no extra
 * step. Deployed workers never do this: it needs `AUTO_MIGRATE_LOCAL=1`, which only the repository's
 * `.dev.vars` sets (wrangler reads that file in `wrangler dev` and never uploads it), AND a request
 * addressed to a loopback host. A deployment's schema comes from `pnpm run deploy` only.
 *
 * Bookkeeping is wrangler's own `d1_migrations` table, so `wrangler d1 migrations apply --local`
 * (and `pnpm dev`) later sees these migrations as applied. Each migration is one D1 batch that
 * first claims its name in `d1_migrations` (a UNIQUE column): of two requests racing on a fresh
 * database, one commits and the other's batch fails on the claim and rolls back whole, so every
 * migration runs exactly once and only after the one before it has committed.
 */
import { isLoopbackHost } from '@edgedns/dns-facts'
import { BUNDLED_MIGRATIONS } from './bundled-migrations.ts'

export interface LocalMigrationEnv {
  AUTO_MIGRATE_LOCAL?: string
}

export interface Migration {
  name: string
  statements: readonly string[]
}

const CREATE_LEDGER = `CREATE TABLE IF NOT EXISTS d1_migrations(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`

/** Whether this request may migrate the database: local development, addressed to this machine. */
export function autoMigrateAllowed(env: LocalMigrationEnv, url: URL): boolean {
  return env.AUTO_MIGRATE_LOCAL === '1' && isLoopbackHost(url.hostname)
}

function isClaimTaken(e: unknown): boolean {
  return /UNIQUE constraint failed: d1_migrations\.name/.test(String((e as Error)?.message ?? e))
}

/**
 * Applies every migration of `migrations` not yet in `d1_migrations`, in order. Returns the names
 * this call applied (a migration another caller applied meanwhile is not among them).
 */
export async function applyPendingMigrations(
  db: D1Database,
  migrations: readonly Migration[] = BUNDLED_MIGRATIONS
): Promise<string[]> {
  await db.prepare(CREATE_LEDGER).run()
  const { results } = await db.prepare('SELECT name FROM d1_migrations').all<{ name: string }>()
  const done = new Set(results.map((r) => r.name))
  const applied: string[] = []
  for (const m of migrations) {
    if (done.has(m.name)) continue
    const claim = db.prepare('INSERT INTO d1_migrations (name) VALUES (?1)').bind(m.name)
    try {
      await db.batch([claim, ...m.statements.map((sql) => db.prepare(sql))])
      applied.push(m.name)
    } catch (e) {
      if (!isClaimTaken(e)) throw e
    }
  }
  return applied
}

/** Settles once per isolate; a failure is retried by the next request. */
let schemaReady: Promise<void> | null = null

/**
 * Before serving a request in local development: makes sure every local database `databases` lists
 * (every D1 shard bound to the worker) has the schema, one after the other.
 */
export function ensureLocalSchema(
  env: LocalMigrationEnv,
  url: URL,
  databases: () => readonly D1Database[]
): Promise<void> | undefined {
  if (!autoMigrateAllowed(env, url)) return undefined
  schemaReady ??= databases()
    .reduce<Promise<string[]>>(
      (done, db) => done.then(async (names) => [...names, ...(await applyPendingMigrations(db))]),
      Promise.resolve([])
    )
    .then(
      (applied) => {
        if (applied.length > 0)
          console.log(
            `edgedns: applied ${applied.length} D1 migration(s) to the local database: ${applied.join(', ')}`
          )
      },
      (e: unknown) => {
        schemaReady = null
        throw e
      }
    )
  return schemaReady
}
