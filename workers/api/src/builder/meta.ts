/**
 * @module The zone's metadata as every head carries it: settings, apex, bucket layout (with the
 * count being retired, which readers fall back to) and the hosted zones below it.
 */
import { encodeZoneMeta, type ZoneLayout } from '@edgedns/kv-layout'
import type { StepContext } from './context.ts'
import { readSubzones } from './queries.ts'
import type { BuilderState } from './state.ts'
import { zoneMetaFrom, type ValueRow, type ZoneDbRow } from './values.ts'

/** The live layout, with the most recent bucket count still readable as `prev`. */
function layoutOf(state: BuilderState, buckets = state.layout?.buckets): ZoneLayout | null {
  if (buckets === undefined) return null
  const retiring = state.retire.filter((r) => r.buckets !== buckets).at(-1)
  return retiring ? { buckets, prev: retiring.buckets } : { buckets }
}

/** `read`: the subzones already read for this zone in the pass's first round trip, if they were. */
export async function buildMeta(
  ctx: StepContext,
  zone: ZoneDbRow,
  apexRows: ValueRow[],
  buckets?: number,
  read?: { of: string; names: string[] } | null
): Promise<string> {
  const subzones = read?.of === zone.name ? read.names : await readSubzones(ctx.io.db, zone.name)
  return encodeZoneMeta(zoneMetaFrom(zone, apexRows, layoutOf(ctx.state, buckets), subzones))
}
