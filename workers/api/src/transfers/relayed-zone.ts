/**
 * @module What a relayed query for one of our zones needs from the zone's shard, read in one D1
 * batch (one round trip, one transaction): the live zone row, its outgoing settings, the peers
 * those settings name with their TSIG keys, the account's ACLs and, for a transfer, the first page
 * of the zone's records. A secondary's SOA check reads no records.
 */
import { fromRawRow } from '../db/raw-row.ts'
import { zones } from '../db/schema.ts'
import type { RecordRow } from '../records/model.ts'
import type { ZoneRow } from '../zones/model.ts'
import { parseIds } from './fields.ts'
import { peersInOrder, peersWithKeysSql, type PeerRow } from './peer-keys.ts'
import type { OutgoingConfig } from './transfer-config.ts'

/** The zone's records after the key (?2 … ?5) in transfer order, at most ?6 of them. */
export const PAGE_SQL = `SELECT * FROM dns_records WHERE zone_id = ?1
    AND (name_rev, type, content, ifnull(priority, -1)) > (?2, ?3, ?4, ?5)
  ORDER BY name_rev, type, content, ifnull(priority, -1) LIMIT ?6`

/** The key before every record: a page read after it is the first. */
export const FIRST_KEY: [string, string, string, number] = ['', '', '', -2]

/**
 * The account of zone ?1, and the peer ids of its outgoing settings (an empty list when they are
 * not JSON), as SQL expressions.
 */
const ACCOUNT = '(SELECT account_id FROM zones WHERE id = ?1)'
const PEER_IDS = `(SELECT CASE WHEN json_valid(peers) THEN peers ELSE '[]' END
  FROM zone_transfers_outgoing WHERE zone_id = ?1)`

export interface RelayedZone {
  zone: ZoneRow
  /** The zone's outgoing transfers; null when it has no outgoing settings. */
  config: OutgoingConfig | null
  /** With `firstPage`: the first page of records, read in the same transaction as `zone`. */
  firstPage: RecordRow[] | null
}

/**
 * Zone `zoneId` (active, or moving between shards) and its outgoing configuration from `db`; with
 * `firstPage`, also its first `firstPage` records. Null when the zone is not live there.
 */
export async function readRelayedZone(
  db: D1Database,
  zoneId: string,
  firstPage: number | null
): Promise<RelayedZone | null> {
  const statements = [
    db.prepare("SELECT * FROM zones WHERE id = ?1 AND status IN ('active', 'moving')").bind(zoneId),
    db
      .prepare('SELECT peers, enabled FROM zone_transfers_outgoing WHERE zone_id = ?1')
      .bind(zoneId),
    db.prepare(peersWithKeysSql(ACCOUNT, PEER_IDS)).bind(zoneId),
    db.prepare(`SELECT ip_range FROM transfer_acls WHERE account_id = ${ACCOUNT}`).bind(zoneId),
  ]
  if (firstPage !== null)
    statements.push(db.prepare(PAGE_SQL).bind(zoneId, ...FIRST_KEY, firstPage))
  const [zoneRows, settingsRows, peerRows, aclRows, pageRows] = await db.batch(statements)
  const raw = zoneRows!.results[0] as Record<string, unknown> | undefined
  if (!raw) return null
  const zone = fromRawRow(zones, raw)
  const settings = settingsRows!.results[0] as { peers: string; enabled: number } | undefined
  const config: OutgoingConfig | null = settings
    ? {
        zoneId,
        enabled: settings.enabled === 1,
        peers: peersInOrder(peerRows!.results as unknown as PeerRow[], parseIds(settings.peers)),
        acls: (aclRows!.results as { ip_range: string }[]).map((r) => r.ip_range),
      }
    : null
  return {
    zone,
    config,
    firstPage: pageRows ? (pageRows.results as unknown as RecordRow[]) : null,
  }
}
