import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: ['./workers/api/src/db/schema.ts', './workers/api/src/db/schema-transfers.ts'],
  out: './migrations',
})
