import { NAMES_PER_BUCKET } from '@edgedns/kv-layout'
import { PRODUCTION_LIMITS } from '@edgedns/platform-limits'
/**
 * @module Build limits: how much one invocation of the ZoneBuilder may do, and pacing of KV writes.
 */

export interface BuildLimits {
  /** KV operations (get, put, delete, list) one invocation may issue (the platform's limit). */
  maxKvOps: number
  /** Change-log rows read per query. */
  logChunk: number
  /** Target names per bucket when a full build picks the bucket count. */
  namesPerBucket: number
  /** Most touched names one per-record pass reads from D1 (its KV cost is in buckets). */
  passNames: number
  /** Distinct owner names per D1 page in the mirror phase of a full build (no KV ops). */
  mirrorPageNames: number
  /**
   * How long a key no head reaches any more stays in KV: a superseded bucket version, an old
   * bucket count after a switch, an earlier head's overlay key. Covers a reader that learns of
   * newer heads late (head slots read from an edge copy, KV propagation) and still reads them.
   */
  retireGraceMs: number
  /** Keys per KV list page in full-build prunes and purges. */
  listPage: number
  /** Buckets a background flush writes between two checks for a waiting notification. */
  flushSlice: number
  /** Minimum spacing of two writes to one key (production KV's limit, unless overridden). */
  keyWriteIntervalMs: number
  /**
   * After a per-record pass has written its head, the builder leaves the runtime's thread to
   * others this long (or until a notification arrives) before it reports and flushes buckets
   * (0: it goes on at once). Locally readers share that thread and confirm the head meanwhile.
   */
  yieldAfterHeadMs: number
  /**
   * The same yield after a head whose pass started a NOTIFY round, when longer: the secondaries'
   * SOA checks and transfers read the zone's database meanwhile, and the report and the bucket
   * flush would otherwise be on it first (0: the plain yield).
   */
  yieldAfterNotifyMs: number
  /**
   * Most bucket versions a head lists itself; beyond, it names a versions table written once and
   * lists only the versions changed since (see versions-table.ts).
   */
  headVersionsMax: number
  /** Safety-net alarm set on every notification; cleared when the builder is caught up. */
  safetyAlarmMs: number
  /** Retry backoff after a failed invocation: base * 2^(failures-1), capped. */
  backoffBaseMs: number
  backoffMaxMs: number
}

const DEFAULT_LIMITS: BuildLimits = {
  maxKvOps: PRODUCTION_LIMITS.kvOpsPerInvocation,
  logChunk: 20_000,
  mirrorPageNames: 2000,
  passNames: 20_000,
  namesPerBucket: NAMES_PER_BUCKET,
  retireGraceMs: 10 * 60_000,
  listPage: 400,
  flushSlice: 64,
  keyWriteIntervalMs: PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs,
  yieldAfterHeadMs: 0,
  yieldAfterNotifyMs: 0,
  headVersionsMax: 128,
  safetyAlarmMs: 30_000,
  backoffBaseMs: 1000,
  backoffMaxMs: 5 * 60_000,
}

/**
 * Defaults, with the key write interval (`KV_KEY_WRITE_INTERVAL_MS`: tests, benchmarks), the
 * yields after a head (`BUILDER_YIELD_AFTER_HEAD_MS`, `BUILDER_YIELD_AFTER_NOTIFY_MS`) and the grace period of keys no head reaches
 * (`BUILDER_RETIRE_GRACE_MS`) overridable (local development).
 */
export function limitsFrom(env: {
  KV_KEY_WRITE_INTERVAL_MS?: string
  KV_NAMES_PER_BUCKET?: string
  BUILDER_YIELD_AFTER_HEAD_MS?: string
  BUILDER_YIELD_AFTER_NOTIFY_MS?: string
  BUILDER_RETIRE_GRACE_MS?: string
}): BuildLimits {
  const interval = Number(env.KV_KEY_WRITE_INTERVAL_MS)
  const perBucket = Number(env.KV_NAMES_PER_BUCKET)
  const yieldMs = Number(env.BUILDER_YIELD_AFTER_HEAD_MS)
  const notifyYieldMs = Number(env.BUILDER_YIELD_AFTER_NOTIFY_MS)
  const grace =
    env.BUILDER_RETIRE_GRACE_MS === undefined ? NaN : Number(env.BUILDER_RETIRE_GRACE_MS)
  return {
    ...DEFAULT_LIMITS,
    retireGraceMs: Number.isFinite(grace) && grace >= 0 ? grace : DEFAULT_LIMITS.retireGraceMs,
    yieldAfterHeadMs: Number.isFinite(yieldMs) && yieldMs > 0 ? Math.min(yieldMs, 100) : 0,
    yieldAfterNotifyMs:
      Number.isFinite(notifyYieldMs) && notifyYieldMs > 0 ? Math.min(notifyYieldMs, 100) : 0,
    namesPerBucket: Number.isInteger(perBucket) && perBucket > 0 ? perBucket : NAMES_PER_BUCKET,
    keyWriteIntervalMs:
      Number.isFinite(interval) && interval >= 0 ? interval : DEFAULT_LIMITS.keyWriteIntervalMs,
  }
}

export function backoffMs(limits: BuildLimits, failures: number): number {
  return Math.min(limits.backoffMaxMs, limits.backoffBaseMs * 2 ** Math.max(0, failures - 1))
}
