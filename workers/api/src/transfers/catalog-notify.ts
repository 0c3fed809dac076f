/**
 * @module NOTIFY (RFC 1996) of an account's catalog zone to the catalog's peers, sent after a
 * write that may have changed its membership (a zone deleted, activated, made primary or no longer
 * primary, or its outgoing transfers enabled, disabled or removed) or the catalog itself. It runs
 * after the commit, in the background: failures are logged, never thrown.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../http/app-env.ts'
import { shardDb, type ShardEnv } from '../shards/databases.ts'
import { accountRoute } from '../shards/directory.ts'
import { homeDb } from '../shards/databases.ts'
import { readCatalog } from './catalog-settings.ts'
import { catalogTransferConfig, servedCatalogSoa } from './catalog-zone.ts'
import { notifyDefaults, notifyPeer, type NotifyOptions, type NotifyOutcome } from './notify.ts'
import type { OutgoingPeer } from './transfer-config.ts'
import { isPrimaryType } from './zone-settings.ts'
import type { ZoneRow } from '../zones/model.ts'

/** Sends a NOTIFY round of the account's catalog when it has one, enabled. Never rejects. */
async function notifyCatalog(
  env: ShardEnv,
  accountId: string,
  options: NotifyOptions = {}
): Promise<NotifyOutcome[]> {
  try {
    const route = await accountRoute(homeDb(env), accountId)
    const db = shardDb(env, route?.shard ?? 0)
    const row = await readCatalog(db, accountId)
    if (!row || row.enabled !== 1) return []
    const config = await catalogTransferConfig({ row, db })
    const soa = servedCatalogSoa(row)
    const opts = notifyDefaults(options)
    const targets = config.peers.filter((p): p is OutgoingPeer & { ip: string } => !!p.ip)
    const outcomes = await Promise.all(targets.map((p) => notifyPeer(p, soa, opts)))
    for (const o of outcomes)
      if (!o.ok) console.warn('catalog NOTIFY failed', row.name, o.peer, o.detail)
    return outcomes
  } catch (err) {
    console.warn('catalog NOTIFY round failed', accountId, err)
    return []
  }
}

/** Queues the catalog's NOTIFY round for after the response (the write has committed). */
export function notifyCatalogLater(c: Context<AppEnv>, accountId: string): void {
  c.executionCtx.waitUntil(notifyCatalog(c.env, accountId))
}

/**
 * Queues the catalog's NOTIFY round when a zone's type change made it primary or no longer primary
 * (only primary zones are members; the change moved the catalog's serial in its transaction).
 */
export function notifyCatalogOnTypeChange(
  c: Context<AppEnv>,
  before: ZoneRow,
  after: ZoneRow
): void {
  if (isPrimaryType(before.type) !== isPrimaryType(after.type))
    notifyCatalogLater(c, after.accountId)
}
