/** Bindings not declared in wrangler.toml: set by `pnpm dev` (`--var`) or by the test config. */
interface ExtraBindings {
  /** Full-access bearer token for local development only; never set it in production. */
  DEV_API_TOKEN?: string
  /** `1` in `.dev.vars` only: `wrangler dev` applies the bundled D1 migrations to an empty local database. */
  AUTO_MIGRATE_LOCAL?: string
  /**
   * Milliseconds between a large change's response going out and its builder notification
   * (default 0). `.dev.vars` sets it locally, where the builder shares two cores with the proxies
   * still relaying the response; deployed, the builder runs elsewhere and nothing waits.
   */
  NOTIFY_AFTER_RESPONSE_DELAY_MS?: string
  /**
   * Milliseconds a builder leaves the thread to others after a per-record pass has written its
   * head, before its build_state report and bucket flush (default 0; ended early by a
   * notification). `.dev.vars` sets it locally, where the builder shares workerd's one thread with
   * the DoH worker and the API; deployed, the builder runs elsewhere and nothing waits.
   */
  BUILDER_YIELD_AFTER_HEAD_MS?: string
  BUILDER_YIELD_AFTER_NOTIFY_MS?: string
  /**
   * Milliseconds a key no head reaches any more (a superseded bucket version, an old bucket
   * count, an earlier head's overlay key) stays in KV before its delete (default ten minutes:
   * readers that learn of newer heads late still read it). `.dev.vars` shortens it locally, where
   * KV has no edge cache and readers confirm heads within milliseconds.
   */
  BUILDER_RETIRE_GRACE_MS?: string
  /** Builder pacing of writes per KV key (production allows one write per second per key). */
  KV_KEY_WRITE_INTERVAL_MS?: string
  /** Target names per bucket when a full build picks the bucket count (`bench/layouts.mjs` varies it). */
  KV_NAMES_PER_BUCKET?: string
  /** `1`: D1 and KV bindings throw on any breach of a production limit (the test suite's mode). */
  STRICT_LIMITS?: string
  /** "production": KV reads through a modelled production edge cache (`@edgedns/strict-bindings`; tests, benchmarks). */
  KV_MODEL?: string
  /** Bytes of a zone file an import accepts (default 32 MiB); a larger file gets 413 / 10413. */
  MAX_IMPORT_BYTES?: string
  /** Records one import may hold when the account sets no batch limit of its own (default 50,000). */
  MAX_IMPORT_RECORDS?: string
  /** Days of audit history the change log keeps (default 90); built entries past it are removed. */
  CHANGE_LOG_RETENTION_DAYS?: string
  /** Seals zones' DNSSEC private keys (a Worker secret; the DoH worker needs the same value). */
  DNSSEC_KEY_ENCRYPTION_KEY?: string
  /** Seconds a disabled zone keeps signing (default 172800). */
  DNSSEC_DISABLE_GRACE_SECONDS?: string
  /**
   * `off`: new zones are active and served at once (`.dev.vars`, so `pnpm dev`, `wrangler dev` and
   * the tests). Unset or anything else: new zones stay pending, unserved, until their owner proves
   * control of the name (docs/zone-ownership.md).
   */
  ZONE_VERIFICATION?: string
  /** DoH JSON endpoint that ownership checks ask (default https://cloudflare-dns.com/dns-query). */
  VERIFICATION_RESOLVER?: string
  /** How new accounts are placed on the D1 shards: `least-bytes` (default), `least-loaded` or `round-robin`. */
  SHARD_PLACEMENT?: string
  /** Bytes past which a D1 shard takes no new account (default 8,000,000,000). */
  SHARD_HIGH_WATER_BYTES?: string
  /** D1 queries one step of a background account move may make (default 400). */
  SHARD_MOVE_STEP_QUERIES?: string
  /**
   * Milliseconds a zone-feed replica answers polls from its last pull before pulling again from
   * the primary (default 200; `.dev.vars` and the tests set 0: every poll sees the primary's log).
   */
  FEED_REPLICA_MAX_AGE_MS?: string
  /**
   * Seconds a secondary zone's checks wait at least after a good check (default 300, BIND's
   * min-refresh-time) and after a failed one (default 500, BIND's min-retry-time), whatever the
   * primary's SOA says; the end-to-end stack lowers them to test expiry in seconds.
   */
  SECONDARY_MIN_REFRESH_SECONDS?: string
  SECONDARY_MIN_RETRY_SECONDS?: string
  /**
   * MiB of packed AXFR answers an isolate keeps for the next transfer of the same zone version
   * (default 32; 0 keeps none; transfers/packed-axfrs.ts).
   */
  TRANSFER_CACHE_MB?: string
  TEST_MIGRATIONS: import('@cloudflare/vitest-plugin').D1Migration[]
}
interface Env extends ExtraBindings {}
declare namespace Cloudflare {
  interface Env extends ExtraBindings {}
}
