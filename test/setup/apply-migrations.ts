/**
 * Gives every bound D1 shard (DB, then DB_1, DB_2, … where a project binds several) the schema:
 * the migrations not yet recorded in `d1_migrations` (the table wrangler keeps), all of them in one
 * batch per shard, each recorded as applied in that same batch.
 */
import { env } from 'cloudflare:workers'

const TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`

async function migrate(db: D1Database): Promise<void> {
  const [, applied] = await db.batch<{ name: string }>([
    db.prepare(TABLE),
    db.prepare('SELECT name FROM d1_migrations'),
  ])
  const done = new Set(applied!.results.map((r) => r.name))
  const insert = db.prepare('INSERT INTO d1_migrations (name) VALUES (?)')
  const pending = env.TEST_MIGRATIONS.filter((m) => !done.has(m.name))
  if (pending.length > 0)
    await db.batch(
      pending.flatMap((m) => [...m.queries.map((q) => db.prepare(q)), insert.bind(m.name)])
    )
}

const bag = env as unknown as Record<string, D1Database | undefined>
const shards = [env.DB]
for (let i = 1; bag[`DB_${i}`]; i++) shards.push(bag[`DB_${i}`]!)
await Promise.all(shards.map(migrate))
