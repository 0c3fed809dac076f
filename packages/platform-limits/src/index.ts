/**
 * @module @edgedns/platform-limits: the Cloudflare platform limits (Workers Paid) the code keeps
 * to, each stated once. The strict bindings check them in tests; the builder's budgets and pacing
 * are set from them. Sources: Cloudflare's limits pages for D1
 * (https://developers.cloudflare.com/d1/platform/limits/) and Workers KV
 * (https://developers.cloudflare.com/kv/platform/limits/). The Worker size limit is kept by the
 * deploy script (`scripts/lib/deploy-steps.mjs`, plain Node), which measures the bundles.
 */
export const PRODUCTION_LIMITS = {
  /** D1: longest SQL statement, in bytes. */
  d1StatementBytes: 100_000,
  /** D1: bound parameters per statement. */
  d1BoundParameters: 100,
  /** D1: largest string or BLOB value, and largest row, in bytes. */
  d1ValueBytes: 2_000_000,
  /** D1: longest `LIKE` or `GLOB` pattern, in bytes. */
  d1LikePatternBytes: 50,
  /** KV: operations per Worker invocation (a bulk get counts as one). */
  kvOpsPerInvocation: 1000,
  /** KV: longest key, in bytes. */
  kvKeyBytes: 512,
  /** KV: largest value, in bytes. */
  kvValueBytes: 25 * 1024 * 1024,
  /** KV: writes to one key at most once per this many milliseconds. */
  kvWritesPerKeyIntervalMs: 1000,
} as const
