/**
 * @module Which bucket versions a head carries. A head lists the version of every bucket that is
 * not at the full build's base; per-record passes rewrite buckets one by one, so on a large zone
 * that list would grow towards one entry per bucket and every head would carry it. Above
 * `headVersionsMax` entries the list goes once to a versions table (a KV key written once, under
 * the overlay keys' prefix) and each head names the table and lists only the versions changed since;
 * when that list outgrows the limit too, the next head names a new table. A table is deleted a
 * grace period after the newest head stopped naming it, like an overlay key.
 */
import { encodeBucketVersions, versionsTableKey, type BucketVersions } from '@edgedns/kv-layout'
import type { StepContext } from './context.ts'
import { ALWAYS, applyOps } from './writer.ts'

export interface HeadVersions {
  /** What the head lists (all of them, or those changed since `versionsKey`'s table). */
  bv: BucketVersions
  versionsKey?: string
  /** Records what the head named: call in the synchronous stretch that records the head. */
  record(): void
}

/**
 * The versions head `n` carries, given every version it names (`all`: a full build's head, which
 * names the base alone). A new table is written to KV before this returns.
 */
export async function headVersions(
  ctx: StepContext,
  n: number,
  versions: BucketVersions,
  all: boolean
): Promise<HeadVersions> {
  const { state, io, limits } = ctx
  const current = state.versionsTable
  if (all || versions.changed.size <= limits.headVersionsMax)
    return {
      bv: versions,
      record: () => {
        if (current === null) return
        state.overlayKeys = [...state.overlayKeys, { key: current.key, at: io.now() }]
        state.versionsTable = null
        ctx.versions.setTable(new Map())
      },
    }
  const since =
    current?.base === versions.base ? changedSince(ctx.versions.table(), versions) : null
  if (current && since && since.size <= limits.headVersionsMax)
    return {
      bv: { base: versions.base, changed: since },
      versionsKey: current.key,
      record: () => {},
    }
  const key = versionsTableKey(state.zoneName!, state.zoneId!, n)
  // Retired unless the head names it (a failure before the head leaves it to no one).
  state.overlayKeys = [...state.overlayKeys, { key, at: io.now() }]
  ctx.save()
  await applyOps(io, ctx.ledger, ctx.budget, [{ key, value: encodeBucketVersions(versions) }], {
    freshSince: ALWAYS,
    intervalMs: 0,
  })
  return {
    bv: { base: versions.base, changed: new Map() },
    versionsKey: key,
    record: () => {
      const kept = state.overlayKeys.filter((o) => o.key !== key)
      state.overlayKeys = current ? [...kept, { key: current.key, at: io.now() }] : kept
      state.versionsTable = { key, base: versions.base }
      ctx.versions.setTable(versions.changed)
    },
  }
}

/** The versions that differ from the table's; null when the table lists a bucket they do not (not a table of them). */
function changedSince(
  table: ReadonlyMap<number, number>,
  versions: BucketVersions
): Map<number, number> | null {
  for (const i of table.keys()) if (!versions.changed.has(i)) return null
  const since = new Map<number, number>()
  for (const [i, v] of versions.changed) if (table.get(i) !== v) since.set(i, v)
  return since
}
