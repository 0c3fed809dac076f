/** Bindings not declared in wrangler.jsonc: set by `pnpm dev` (`--var`) or by the test config. */
interface Env {
  /** Full-access bearer token for local development only; never set it in production. */
  DEV_API_TOKEN?: string
  /** Comma-separated name servers for new zones. */
  NAME_SERVERS?: string
  TEST_MIGRATIONS: import('@cloudflare/vitest-plugin').D1Migration[]
}
