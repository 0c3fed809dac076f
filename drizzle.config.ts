import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: './workers/api/src/db/schema.ts',
  out: './migrations',
})
