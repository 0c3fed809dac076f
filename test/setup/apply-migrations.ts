import { applyD1Migrations } from 'cloudflare:test'
import { env } from 'cloudflare:workers'

// Every bound D1 shard (DB, then DB_1, DB_2, … where a project binds several) gets the schema.
const bag = env as unknown as Record<string, D1Database | undefined>
for (let i = 0; i === 0 || bag[`DB_${i}`]; i++)
  await applyD1Migrations(i === 0 ? env.DB : bag[`DB_${i}`]!, env.TEST_MIGRATIONS)
