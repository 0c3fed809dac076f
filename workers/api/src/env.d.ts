/** Bindings not declared in wrangler.toml: set by `pnpm dev` (`--var`) or by the test config. */
interface ExtraBindings {
  /** Full-access bearer token for local development only; never set it in production. */
  DEV_API_TOKEN?: string
  /** Builder pacing of writes per KV key (production allows one write per second per key). */
  KV_KEY_WRITE_INTERVAL_MS?: string
  TEST_MIGRATIONS: import('@cloudflare/vitest-plugin').D1Migration[]
}
interface Env extends ExtraBindings {}
declare namespace Cloudflare {
  interface Env extends ExtraBindings {}
}
