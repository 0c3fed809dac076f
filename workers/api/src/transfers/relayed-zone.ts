/**
 * @module What a relayed query for one of our zones needs from the zone's shard, read in one D1
 * batch (one round trip, one transaction): the live zone row, its outgoing settings, the peers
 * those settings name with their TSIG keys and the account's ACLs; with a single shard the
 * directory's lookup of the name too (with several, one read before it). No record is read before
 * the client is known to be allowed: a refused query costs the shard no more than this batch. And
 * the SQL of a transfer's pages of records, in transfer order.
 */
import { fromRawRow } from '../db/raw-row.ts'
import { reverseName } from '../records/model.ts'
import { shardCount, type ShardEnv } from '../shards/databases.ts'
import { liveZoneShardNamed } from '../shards/zone-env.ts'
import { zones } from '../db/schema.ts'
import type { ZoneRow } from '../zones/model.ts'
import { parseIds } from './fields.ts'
import { joinedPageSql } from './joined-page.ts'
import type { TransferRow } from './transfer-row.ts'
import { peersInOrder, peersWithKeysSql, type PeerRow } from './peer-keys.ts'
import type { OutgoingConfig } from './transfer-config.ts'

/**
 * The columns of a record a transfer reads, in the order of `TransferRow`: what its wire form
 * needs, the owner as `ownerText` (most owners are a few labels below the zone's name, sent
 * without it: less for D1 to send and for the worker to decode). The zone's name with a dot in
 * front is the parameter ?7, a value rather than a subquery of the zones table (which SQLite paid
 * for again on every row). Its place in transfer order (name_rev, type, content,
 * priority) is found from them: name_rev is always the stored name's labels reversed
 * (`reverseName`), so it is not read.
 */
const TRANSFER_COLUMNS = `type, content, priority,
    CASE WHEN substr(name, -length(?7)) = ?7
      THEN substr(name, 1, length(name) - length(?7)) ELSE name || '.' END AS owner,
    data, ttl`

/**
 * The owner of a record of zone `zone` from its `owner` column: the labels below the zone's name,
 * or any other name (the zone's own included) with a final dot.
 */
const ownerName = (owner: string, zone: string): string =>
  ownerIsWhole(owner) ? wholeOwner(owner) : `${owner}.${zone}`

/** Whether an `owner` column is a whole name (with its final dot), not the labels below the zone. */
export const ownerIsWhole = (owner: string): boolean => owner.charCodeAt(owner.length - 1) === 0x2e

/** The name of an `owner` column that is a whole name (`ownerIsWhole`). */
export const wholeOwner = (owner: string): string => owner.slice(0, -1)

/** A record's place in transfer order (priority −1 when it has none). */
export type TransferKey = [nameRev: string, type: string, content: string, priority: number]

/** The key of a record of zone `zone`: a page read after it starts with the next record. */
export const keyOf = (row: TransferRow, zone: string): TransferKey => [
  reverseName(ownerName(row[3], zone)),
  row[0],
  row[1],
  row[2] ?? -1,
]

/**
 * The records of zone ?1 after the key ?2 … ?5 in transfer order, at most ?6; ?7 is `pageSuffix` of
 * the zone's name.
 */
export const PAGE_SQL = `SELECT ${TRANSFER_COLUMNS} FROM dns_records WHERE zone_id = ?1
    AND (name_rev, type, content, ifnull(priority, -1)) > (?2, ?3, ?4, ?5)
  ORDER BY name_rev, type, content, ifnull(priority, -1) LIMIT ?6`

/** `PAGE_SQL`'s records as one joined page (see transfers/joined-page.ts). */
export const JOINED_PAGE_SQL = joinedPageSql(PAGE_SQL)

/** The parameter ?7 of a page of the zone named `zone`: the suffix cut from owners below it. */
export const pageSuffix = (zone: string): string => `.${zone}`

/** The key before every record: a page read after it is the first. */
export const FIRST_KEY: TransferKey = ['', '', '', -2]

/** The id of the active zone named ?1 in the directory (shard 0), as an SQL expression. */
const ZONE_NAMED = "(SELECT zone_id FROM directory_zones WHERE name = ?1 AND status = 'active')"

/**
 * The account of zone `zone`, and the peer ids of its outgoing settings (an empty list when they
 * are not JSON), as SQL expressions.
 */
const accountOf = (zone: string): string => `(SELECT account_id FROM zones WHERE id = ${zone})`
const peerIdsOf = (zone: string): string => `(SELECT CASE WHEN json_valid(peers) THEN peers
  ELSE '[]' END FROM zone_transfers_outgoing WHERE zone_id = ${zone})`

export interface RelayedZone {
  zone: ZoneRow
  /** The zone's outgoing transfers; null when it has no outgoing settings. */
  config: OutgoingConfig | null
}

/**
 * The active zone named `name` (lower case, no final dot) with what a relayed query for it needs:
 * its settings, not its records (an AXFR reads them once the client is allowed,
 * `transfer-pages.ts`). 'unknown' when no active zone has that name, null when the directory
 * names one that is not live on its shard.
 */
export async function readRelayedZoneNamed(
  env: ShardEnv,
  name: string
): Promise<{ db: D1Database; read: RelayedZone | null } | 'unknown'> {
  if (shardCount(env) === 1) {
    const read = await readRelayedZone(env.DB, { name })
    return read === 'unknown' ? read : { db: env.DB, read }
  }
  const live = await liveZoneShardNamed(env, name)
  if (!live) return 'unknown'
  const read = await readRelayedZone(live.db, { id: live.zoneId })
  return { db: live.db, read: read === 'unknown' ? null : read }
}

/** Zone `zoneId` (live on `db`) with its outgoing configuration, in one batch; null when not live. */
export async function readOutgoingZone(
  db: D1Database,
  zoneId: string
): Promise<RelayedZone | null> {
  const read = await readRelayedZone(db, { id: zoneId })
  return read === 'unknown' ? null : read
}

/**
 * Zone `zone.id` (active, or moving between shards) and its outgoing configuration from `db` in one
 * batch; given `zone.name` instead, the zone the directory on `db` names so (the home database).
 * Null when the zone is not live on `db`; 'unknown' when the directory has no active zone of that
 * name.
 */
async function readRelayedZone(
  db: D1Database,
  zone: { id: string } | { name: string }
): Promise<RelayedZone | null | 'unknown'> {
  const byName = 'name' in zone
  const id = byName ? ZONE_NAMED : '?1'
  const statements = [
    db.prepare(`SELECT * FROM zones WHERE id = ${id} AND status IN ('active', 'moving')`),
    db.prepare(`SELECT peers, enabled FROM zone_transfers_outgoing WHERE zone_id = ${id}`),
    db.prepare(peersWithKeysSql(accountOf(id), peerIdsOf(id))),
    db.prepare(`SELECT ip_range FROM transfer_acls WHERE account_id = ${accountOf(id)}`),
  ].map((s) => s.bind(byName ? zone.name : zone.id))
  if (byName) statements.push(db.prepare(ZONE_NAMED.slice(1, -1)).bind(zone.name))
  const results = await db.batch(statements)
  if (byName && results.at(-1)!.results.length === 0) return 'unknown'
  const [zoneRows, settingsRows, peerRows, aclRows] = results
  const raw = zoneRows!.results[0] as Record<string, unknown> | undefined
  if (!raw) return null
  const row = fromRawRow(zones, raw)
  const settings = settingsRows!.results[0] as { peers: string; enabled: number } | undefined
  const config: OutgoingConfig | null = settings
    ? {
        zoneId: row.id,
        enabled: settings.enabled === 1,
        peers: peersInOrder(peerRows!.results as unknown as PeerRow[], parseIds(settings.peers)),
        acls: (aclRows!.results as { ip_range: string }[]).map((r) => r.ip_range),
      }
    : null
  return { zone: row, config }
}
