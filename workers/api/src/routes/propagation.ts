/**
 * @module Propagation endpoints of a zone: build progress, a full rebuild on demand (repair,
 * after imports), and a D1-vs-KV convergence check.
 *   GET  /zones/:zone_id/propagation          → { committed_seq, built_seq, lag_ms, last_full_build, … }
 *   POST /zones/:zone_id/propagation/rebuild  → { seq } (the change-log sequence of the request)
 *   GET  /zones/:zone_id/propagation/check    → convergence report (differences capped at 100)
 * A zone is built only once activated (the builder's `isServed` rule): until then, whether pending
 * or fenced by an account move, both reports say `status: 'pending'` and expect nothing in KV.
 */
import { Hono } from 'hono'
import { checkConvergence } from '../builder/convergence.ts'
import { isServed } from '../builder/values.ts'
import { requestFullBuild } from '../builder/request-full.ts'
import { CHANGE_SEQ_HEADER } from '../commit/zone-change.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { ok } from '../http/envelope.ts'
import { spend } from '../http/rate-limit.ts'
import { withDb } from '../shards/zone-env.ts'
import { zoneFor } from '../zones/access.ts'
import type { ZoneRow } from '../zones/model.ts'

export const propagationApp = new Hono<AppEnv>()

interface BuildRow {
  built_seq: number
  built_at: number | null
  last_full_build_at: number | null
  last_error_at: number | null
  last_error: string | null
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

/** Whether the builder builds the zone, by the rule it applies itself. */
const built = (zone: ZoneRow): boolean =>
  isServed({ status: zone.status, activated_on: zone.activatedOn })

/** What a pending zone's propagation answers say: it is not served, so nothing is built for it. */
const PENDING_MESSAGE =
  'The zone is pending: it is not served and nothing of it is built into KV until its activation check succeeds (PUT /zones/{zone_id}/activation_check).'

propagationApp.get('/', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  if (!built(zone)) {
    return ok(c, {
      status: 'pending',
      committed_seq: zone.changeSeq,
      built_seq: 0,
      lag_ms: 0,
      last_full_build: null,
      built_at: null,
      last_error: null,
      message: PENDING_MESSAGE,
    })
  }
  const build = await c.var.zoneDb
    .prepare('SELECT * FROM build_state WHERE zone_id = ?1')
    .bind(zone.id)
    .first<BuildRow>()
  const builtSeq = build?.built_seq ?? 0
  let lagMs = 0
  if (zone.changeSeq > builtSeq) {
    // Age of the oldest committed change that is not built yet.
    const oldest = await c.var.zoneDb
      .prepare(
        'SELECT created_on FROM change_log WHERE zone_id = ?1 AND seq > ?2 ORDER BY seq LIMIT 1'
      )
      .bind(zone.id, builtSeq)
      .first<{ created_on: string }>()
    lagMs = oldest ? Math.max(0, Date.now() - Date.parse(oldest.created_on)) : 0
  }
  return ok(c, {
    status: 'active',
    committed_seq: zone.changeSeq,
    built_seq: builtSeq,
    lag_ms: lagMs,
    last_full_build: iso(build?.last_full_build_at ?? null),
    built_at: iso(build?.built_at ?? null),
    last_error: build?.last_error
      ? { at: iso(build.last_error_at), message: build.last_error }
      : null,
  })
})

propagationApp.post('/rebuild', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  // A full build rewrites every key of the zone: bounded per zone, whoever asks.
  await spend(c.env.REBUILD_LIMITER, zone.id, 'full rebuilds of this zone')
  const request = await requestFullBuild(c.env, zone.id, (p) =>
    c.executionCtx.waitUntil(p.catch(() => {}))
  )
  if (!request) throw new ApiError(404, Codes.zoneNotFound, `Zone ${zone.id} not found`)
  c.header(CHANGE_SEQ_HEADER, String(request.seq))
  return ok(c, { seq: request.seq })
})

propagationApp.get('/check', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  // A pending zone owns no KV key. Keys under its name, if any, are those of the account holding
  // the name active: they are neither compared nor shown.
  if (!built(zone)) {
    return ok(c, {
      zone_id: zone.id,
      zone: zone.name,
      status: 'pending',
      converged: true,
      expected_keys: 0,
      actual_keys: 0,
      difference_count: 0,
      differences: [],
      message: PENDING_MESSAGE,
    })
  }
  const report = await checkConvergence(withDb(c.env, c.var.zoneDb), zone.id)
  return ok(c, {
    zone_id: report.zoneId,
    zone: report.zone,
    status: 'active',
    converged: report.differenceCount === 0,
    expected_keys: report.expectedKeys,
    actual_keys: report.actualKeys,
    difference_count: report.differenceCount,
    differences: report.differences.slice(0, 100),
  })
})
