/**
 * @module Zones endpoints: list, create, get, edit, delete, the activation check of a pending zone,
 * and DNS settings (SOA, NS TTL, proxy addresses).
 */
import { normalizeHostname, normalizeNewZoneName } from '@edgedns/records'
import { eq, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod'
import { allows } from '../auth/permissions.ts'
import {
  accountFenceStatement,
  announceCommit,
  commitZoneChange,
  CommitConflict,
  guardStatement,
  zoneLogStatement,
} from '../commit/zone-change.ts'
import { accounts, zones } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { queryParam } from '../http/query.ts'
import { readBody } from '../http/body.ts'
import { ok, okList, resultInfo } from '../http/envelope.ts'
import { newId, nowIso } from '../http/ids.ts'
import { spend } from '../http/rate-limit.ts'
import { intParam, MAX_OFFSET } from '../records/list-query.ts'
import { mergeShardPages, type ListedZone } from '../zones/list-merge.ts'
import { zoneListQuery } from '../zones/list-query.ts'
import { eraseDeletedZone } from '../zones/erase.ts'
import { openDb } from '../db/client.ts'
import { allShards, homeDb, shardDb } from '../shards/databases.ts'
import { firstSerial, forgetZone, pendingElsewhere, releaseZoneName } from '../shards/directory.ts'
import { assertWritable, placeAccount, reserveName } from '../shards/zone-shard.ts'
import { accountName, zoneFor } from '../zones/access.ts'
import { dnsSettingsToApi, zoneToApi, type ZoneRow } from '../zones/model.ts'
import { newZoneRow } from '../zones/new-zone.ts'
import { checkOwnership, verificationMode } from '../zones/ownership.ts'
import { isPublicSuffix } from '../zones/public-suffix.ts'
import { activateZone, releaseUnlessActive } from '../zones/activation.ts'
import { refuseReservation } from '../zones/reservation-refusal.ts'
import { notifyCatalogLater, notifyCatalogOnTypeChange } from '../transfers/catalog-notify.ts'
import { currentZone, isZoneChanged, zoneChangedRetry, zoneGuard } from '../zones/zone-guard.ts'
import { soaGuarded } from '../zones/read-only.ts'

export const zonesApp = new Hono<AppEnv>()

const DEFAULT_NAME_SERVERS = 'ns1.edgedns.dev,ns2.edgedns.dev'

/** A comma-separated list from a wrangler var (new zones' proxy addresses, name servers). */
function listVar(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

export const createSchema = z.object({
  name: z.string().min(1),
  account: z.object({ id: z.string() }).optional(),
  type: z.enum(['full', 'partial', 'secondary', 'internal']).default('full'),
})

export const editSchema = z.object({
  paused: z.boolean().optional(),
  type: z.enum(['full', 'partial', 'secondary', 'internal']).optional(),
  vanity_name_servers: z.array(z.string()).optional(),
})

const ttl = z.number().int().min(30).max(86400)
export const dnsSettingsSchema = z.object({
  ns_ttl: ttl.optional(),
  soa: z
    .object({
      mname: z.string(),
      rname: z.string(),
      refresh: z.number().int().min(600).max(86400),
      retry: z.number().int().min(600).max(86400),
      expire: z.number().int().min(86400).max(2419200),
      min_ttl: z.number().int().min(60).max(86400),
      ttl: z.number().int().min(300).max(86400),
    })
    .partial()
    .optional(),
  proxy_addresses: z
    .object({ ipv4: z.array(z.ipv4()), ipv6: z.array(z.ipv6()) })
    .partial()
    .optional(),
  // Settings without a switch here: echoing their fixed value is accepted, changing them is refused.
  flatten_all_cnames: z
    .literal(
      false,
      'flatten_all_cnames cannot be turned on here; flatten CNAME records one by one with settings.flatten_cname'
    )
    .optional(),
  foundation_dns: z.literal(false, 'foundation_dns cannot be turned on here').optional(),
  multi_provider: z.literal(false, 'multi_provider cannot be turned on here').optional(),
  secondary_overrides: z.literal(false, 'secondary_overrides cannot be turned on here').optional(),
  internal_dns: z
    .strictObject({}, 'internal_dns cannot be set here: zones are not internal zones')
    .optional(),
})

/** Deepest `page` offset across several shards (each shard's rows before the page are merged in memory). */
const MAX_MERGED_OFFSET = 10_000

zonesApp.get('/', async (c) => {
  const page = intParam(queryParam(c, 'page'), 'page', 1, 1, Number.MAX_SAFE_INTEGER)
  const perPage = intParam(queryParam(c, 'per_page'), 'per_page', 20, 1, 1000)
  const q = zoneListQuery(c.var.principal, (k) => queryParam(c, k), c.req.queries('type'))
  const from = 'FROM zones z JOIN accounts a ON a.id = z.account_id'
  const n = q.params.length
  const offset = q.continued ? 0 : Math.min((page - 1) * perPage, MAX_OFFSET)
  // A cursor page starts where the last one ended: no offset, and no count of every zone.
  const pageSql = `SELECT z.id, z.name, ${q.sortColumn} AS sort ${from} WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ?${n + 1} OFFSET ?${n + 2}`
  const countSql = `SELECT count(*) AS n ${q.readsAccount ? from : 'FROM zones z'} WHERE ${q.where}`
  // One shard reads the page itself. Several each read their first offset + per_page rows, merged
  // into the order one database would give; those rows are held in the isolate, so the offset is
  // bounded there and deeper pages are read by cursor.
  const shards = allShards(c.env)
  if (shards.length > 1 && offset > MAX_MERGED_OFFSET) {
    throw ApiError.badRequest(
      Codes.invalidRequest,
      `page × per_page may reach at most ${MAX_MERGED_OFFSET} zones; continue with cursor (result_info.cursors.after) to list further`
    )
  }
  const [limit, skip] = shards.length === 1 ? [perPage, offset] : [offset + perPage, 0]
  const perShard = await Promise.all(
    shards.map(async ({ db }) => {
      const pageStatement = db.prepare(pageSql).bind(...q.params, limit, skip)
      if (q.continued)
        return { db, total: 0, rows: (await pageStatement.all<ListedZone>()).results }
      const [count, rows] = await db.batch([db.prepare(countSql).bind(...q.params), pageStatement])
      return {
        db,
        total: (count!.results[0] as { n: number }).n,
        rows: rows!.results as ListedZone[],
      }
    })
  )
  const rows =
    shards.length === 1
      ? perShard[0]!.rows
      : mergeShardPages(
          perShard.map((s) => s.rows),
          q.direction,
          offset + perPage
        ).slice(offset)
  const shown = new Set(rows.map((r) => r.id))
  const full = (
    await Promise.all(
      perShard.map(({ db, rows: own }) => {
        const ids = own.filter((r) => shown.has(r.id)).map((r) => r.id)
        if (ids.length === 0) return []
        return openDb(db)
          .select({ zone: zones, accountName: accounts.name })
          .from(zones)
          .innerJoin(accounts, eq(accounts.id, zones.accountId))
          .where(sql`${zones.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
          .all()
      })
    )
  ).flat()
  const byId = new Map(full.map((r) => [r.zone.id, r]))
  const slice = rows.map((r) => byId.get(r.id)).filter((r) => r !== undefined)
  const last = rows.at(-1)
  // A full page may have a next one; a short page is the last.
  const cursors = rows.length === perPage && last ? { after: q.cursorAfter(last) } : {}
  const result = slice.map((r) => zoneToApi(r.zone, r.accountName))
  if (q.continued) return okList(c, result, { per_page: perPage, count: slice.length, cursors })
  const total = perShard.reduce((sum, s) => sum + s.total, 0)
  const info = resultInfo(page, perPage, slice.length, total)
  return okList(c, result, cursors.after === undefined ? info : { ...info, cursors })
})

zonesApp.post('/', async (c) => {
  const body = await readBody(c, createSchema)
  const principal = c.var.principal
  let accountId = body.account?.id
  if (accountId === undefined) {
    const all = await c.var.db.select({ id: accounts.id }).from(accounts).all()
    if (all.length !== 1) throw ApiError.badRequest(Codes.invalidRequest, 'account.id is required')
    accountId = all[0]!.id
  }
  const account = await c.var.db.select().from(accounts).where(eq(accounts.id, accountId)).get()
  if (!account) throw new ApiError(404, Codes.accountNotFound, `Account ${accountId} not found`)
  if (!allows(principal, 'zone:edit', { accountId }))
    throw new ApiError(
      403,
      Codes.unauthenticated,
      'Authentication error: this token cannot create zones in that account'
    )
  let name: string
  try {
    name = normalizeNewZoneName(body.name)
  } catch (e) {
    throw ApiError.badRequest(Codes.invalidZoneName, (e as Error).message)
  }
  if (isPublicSuffix(name)) {
    throw ApiError.badRequest(
      Codes.invalidZoneName,
      `${name} is a public suffix (on the Public Suffix List), under which anyone may register a domain: add the domain you registered under it instead`
    )
  }
  // Pending until its owner proves control of the name, unless verification is off (local dev).
  const pending = verificationMode(c.env) === 'required'
  const now = nowIso()
  const row = newZoneRow({
    id: newId(),
    accountId,
    name,
    type: body.type,
    nameServers: listVar(c.env.NAME_SERVERS ?? DEFAULT_NAME_SERVERS),
    proxyIpv4: listVar(c.env.PROXY_IPV4),
    proxyIpv6: listVar(c.env.PROXY_IPV6),
    pending,
    verificationKey: newId(),
    now,
  })
  // The account's shard (placed now if this is its first zone), then the name, reserved
  // platform-wide in the directory before the shard write and given back if that write fails.
  // Conflicts name only what the caller sent: never another account's zone name or id.
  const route = await placeAccount(c.env, account)
  assertWritable(route)
  const home = homeDb(c.env)
  const reserved = await reserveName(c.env, {
    zoneId: row.id,
    accountId,
    name,
    now,
    status: pending ? 'pending' : 'active',
  })
  refuseReservation(reserved, name, 'added')
  row.serial = await firstSerial(home, name, now)
  const db = shardDb(c.env, route.shard)
  const insert = c.var.db.insert(zones).values(row).toSQL()
  try {
    await commitZoneChange(db, [
      accountFenceStatement(db, accountId),
      db.prepare(insert.sql).bind(...insert.params),
      zoneLogStatement(db, row.id, 1, 'zone', now),
    ])
  } catch (e) {
    await forgetZone(home, row.id)
    if (e instanceof CommitConflict && e.reason === 'zone-name-taken')
      throw ApiError.badRequest(Codes.zoneExists, `${name} already exists`)
    if (e instanceof CommitConflict && e.reason === 'account-fenced')
      assertWritable({ ...route, state: 'moving' })
    throw e
  }
  announceCommit(c, row.id, 1, 1)
  return ok(c, zoneToApi(row, account.name))
})

zonesApp.get('/:zone_id{[^/]+}', async (c) => {
  const zone = await zoneFor(c, 'zone:read').catch(async (e) => {
    // DNS-only tokens may read the zone object too (external-dns style clients need it).
    if (e instanceof ApiError && e.status === 403) return zoneFor(c, 'dns:read')
    throw e
  })
  return ok(c, zoneToApi(zone, await accountName(c.var.db, zone.accountId)))
})

/** Applies a zone settings change under the version guard, logging it for the builder (apex/meta rebuild). */
async function updateZone(
  c: Parameters<typeof zoneFor>[0],
  zone: ZoneRow,
  set: Partial<ZoneRow>
): Promise<ZoneRow> {
  const now = nowIso()
  const update = c.var.db.update(zones).set(set).where(eq(zones.id, zone.id)).toSQL()
  try {
    const db = c.var.zoneDb
    await commitZoneChange(db, [
      guardStatement(db, zoneGuard(zone, now), 1),
      db.prepare(update.sql).bind(...update.params),
      zoneLogStatement(db, zone.id, zone.changeSeq + 1, 'zone', now),
    ])
  } catch (e) {
    if (isZoneChanged(e)) throw zoneChangedRetry('while this update was applied')
    throw e
  }
  announceCommit(c, zone.id, zone.changeSeq + 1, 1)
  return (await c.var.zoneOrm.select().from(zones).where(eq(zones.id, zone.id)).get())!
}

zonesApp.patch('/:zone_id{[^/]+}', async (c) => {
  const zone = await zoneFor(c, 'zone:edit')
  const body = await readBody(c, editSchema)
  const set: Partial<ZoneRow> = {}
  if (body.paused !== undefined) set.paused = body.paused
  if (body.type !== undefined) set.type = body.type
  if (body.type === 'secondary' && zone.type !== 'secondary') set.secondaryExpired = true
  if (body.vanity_name_servers !== undefined)
    set.vanityNameServers = JSON.stringify(
      body.vanity_name_servers.map((n) => normalizeHostname(n))
    )
  const updated = Object.keys(set).length === 0 ? zone : await updateZone(c, zone, set)
  notifyCatalogOnTypeChange(c, zone, updated)
  return ok(c, zoneToApi(updated, await accountName(c.var.db, zone.accountId)))
})

zonesApp.delete('/:zone_id{[^/]+}', async (c) => {
  const zone = await zoneFor(c, 'zone:edit')
  const now = nowIso()
  try {
    // Gone for the API at once (status 'deleted' frees its name); its records are removed in bounded
    // chunks afterwards (here in the background, and by the cron), so no statement grows with it.
    const db = c.var.zoneDb
    await commitZoneChange(db, [
      guardStatement(db, zoneGuard(zone, now), 1),
      zoneLogStatement(db, zone.id, zone.changeSeq + 1, 'zone_delete', now),
      db
        .prepare("UPDATE zones SET status = 'deleted', modified_on = ?2 WHERE id = ?1")
        .bind(zone.id, now),
    ])
  } catch (e) {
    // Another write (or delete) committed between our read and this batch: nothing changed here.
    if (!isZoneChanged(e)) throw e
    if (!(await currentZone(c, zone.id)))
      throw new ApiError(404, Codes.zoneNotFound, `Zone ${zone.id} not found`)
    throw zoneChangedRetry('while it was being deleted')
  }
  const committedAt = Date.now()
  const last = { serial: zone.serial, activated: zone.activatedOn !== null, now }
  await releaseZoneName(homeDb(c.env), zone.id, last) // the name is free for new zones
  announceCommit(c, zone.id, zone.changeSeq + 1, 1, undefined, committedAt)
  notifyCatalogLater(c, zone.accountId)
  c.executionCtx.waitUntil(
    eraseDeletedZone(c.var.zoneDb, zone.id).catch((e: unknown) =>
      console.warn('zone record erase interrupted; the cron continues it', zone.id, e)
    )
  )
  return ok(c, { id: zone.id })
})

/**
 * Cloudflare's activation check, answered at once: a pending zone whose owner has proved control of
 * the name (docs/zone-ownership.md), or any pending zone when verification is off, becomes active
 * and is built; otherwise it stays pending and a message says what is missing. An active zone
 * answers as it is. Checks that look the name up are rate limited per zone (429, retry-after).
 */
zonesApp.put('/:zone_id{[^/]+}/activation_check', async (c) => {
  const zone = await zoneFor(c, 'zone:edit')
  if (zone.status !== 'pending') return ok(c, { id: zone.id })
  if (verificationMode(c.env) === 'required') {
    // Each check asks the public DNS several questions: bounded per zone, whoever asks.
    await spend(c.env.ACTIVATION_CHECK_LIMITER, zone.id, 'activation checks of this zone')
    // Only the name servers the platform assigned prove anything: vanity ones are whatever the
    // zone's account chose, so they could name the domain's current provider.
    const verdict = await checkOwnership(
      c.var.ownershipResolver,
      {
        name: zone.name,
        verificationKey: zone.verificationKey,
        nameServers: JSON.parse(zone.nameServers) as string[],
      },
      await pendingElsewhere(homeDb(c.env), zone.accountId, zone.name)
    )
    if (!verdict.verified) {
      // Not proven now: the name is not held for this zone, whatever an earlier check left.
      await releaseUnlessActive(c, zone.id)
      return c.json({
        success: true,
        errors: [],
        messages: [{ code: Codes.zoneStillPending, message: verdict.reason }],
        result: { id: zone.id },
      })
    }
  }
  await activateZone(c, zone)
  notifyCatalogLater(c, zone.accountId)
  return ok(c, { id: zone.id })
})

zonesApp.get('/:zone_id{[^/]+}/dns_settings', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  return ok(c, dnsSettingsToApi(zone))
})

zonesApp.patch('/:zone_id{[^/]+}/dns_settings', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  const body = await readBody(c, dnsSettingsSchema)
  const set: Partial<ZoneRow> = {}
  if (body.ns_ttl !== undefined) set.nsTtl = body.ns_ttl
  const soa = body.soa ?? {}
  if (soa.mname !== undefined) set.soaMname = normalizeHostname(soa.mname)
  if (soa.rname !== undefined) set.soaRname = normalizeHostname(soa.rname.replace('@', '.'))
  if (soa.refresh !== undefined) set.soaRefresh = soa.refresh
  if (soa.retry !== undefined) set.soaRetry = soa.retry
  if (soa.expire !== undefined) set.soaExpire = soa.expire
  if (soa.min_ttl !== undefined) set.soaMinimum = soa.min_ttl
  if (soa.ttl !== undefined) set.soaTtl = soa.ttl
  if (body.proxy_addresses?.ipv4 !== undefined)
    set.proxyIpv4 = JSON.stringify(body.proxy_addresses.ipv4)
  if (body.proxy_addresses?.ipv6 !== undefined)
    set.proxyIpv6 = JSON.stringify(body.proxy_addresses.ipv6)
  const changes = soaGuarded(zone, set)
  const updated = Object.keys(changes).length === 0 ? zone : await updateZone(c, zone, changes)
  return ok(c, dnsSettingsToApi(updated))
})
