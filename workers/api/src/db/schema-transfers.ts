/**
 * @module D1 schema of zone transfers (drizzle), in Cloudflare's secondary-DNS shape: an account's
 * TSIG keys, peers (name servers we transfer to or from) and ACLs (address ranges allowed to
 * transfer), and each zone's outgoing (we are primary) and incoming (we are secondary) settings.
 * These rows live on the account's shard, beside its zones, and move with it.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/** TSIG keys (RFC 8945) an account's peers sign transfers and NOTIFY with. */
export const transferTsigs = sqliteTable(
  'transfer_tsigs',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    /** The key name, a domain name as BIND writes it in `key "name"`, lower case, no final dot. */
    name: text('name').notNull(),
    /** `hmac-sha256.` | `hmac-sha512.` … as Cloudflare spells it (with the final dot). */
    algo: text('algo').notNull(),
    /** The shared secret, base64. */
    secret: text('secret').notNull(),
    createdOn: text('created_on').notNull(),
    modifiedOn: text('modified_on').notNull(),
  },
  (t) => [uniqueIndex('transfer_tsigs_account_name').on(t.accountId, t.name)]
)

/** Name servers an account transfers zones to (outgoing) or from (incoming). */
export const transferPeers = sqliteTable(
  'transfer_peers',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    name: text('name').notNull(),
    /** IPv4 or IPv6 address; null until set (Cloudflare creates a peer with a name only). */
    ip: text('ip'),
    port: integer('port'),
    /** Incoming transfers from this peer ask IXFR first (1) or always AXFR (0). */
    ixfrEnable: integer('ixfr_enable').notNull().default(0),
    /** The TSIG key (`transfer_tsigs.id`) transfers with this peer are signed with; null: none. */
    tsigId: text('tsig_id'),
    createdOn: text('created_on').notNull(),
    modifiedOn: text('modified_on').notNull(),
  },
  (t) => [index('transfer_peers_account').on(t.accountId)]
)

/** Address ranges (CIDR) allowed to ask an account's zones by AXFR/IXFR. */
export const transferAcls = sqliteTable(
  'transfer_acls',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    name: text('name').notNull(),
    /** One CIDR range, IPv4 or IPv6, in canonical form (`192.0.2.0/24`, `2001:db8::/32`). */
    ipRange: text('ip_range').notNull(),
    createdOn: text('created_on').notNull(),
    modifiedOn: text('modified_on').notNull(),
  },
  (t) => [index('transfer_acls_account').on(t.accountId)]
)

/** Outgoing transfers of a primary zone (`/zones/{id}/secondary_dns/outgoing`). */
export const zoneTransfersOutgoing = sqliteTable('zone_transfers_outgoing', {
  zoneId: text('zone_id').primaryKey(),
  /** The zone name as the caller sent it (Cloudflare echoes it). */
  name: text('name').notNull(),
  /** JSON array of `transfer_peers.id`: who gets NOTIFY and may transfer. */
  peers: text('peers').notNull().default('[]'),
  /** 1 while outgoing transfers are enabled (`/enable`, `/disable`). */
  enabled: integer('enabled').notNull().default(0),
  createdOn: text('created_on').notNull(),
  modifiedOn: text('modified_on').notNull(),
  /** The last time a NOTIFY round was sent or a peer was checked. */
  checkedOn: text('checked_on'),
  /** The last time a peer completed a transfer of this zone. */
  lastTransferredOn: text('last_transferred_on'),
})

/** Incoming transfers of a secondary zone (`/zones/{id}/secondary_dns/incoming`). */
export const zoneTransfersIncoming = sqliteTable('zone_transfers_incoming', {
  zoneId: text('zone_id').primaryKey(),
  name: text('name').notNull(),
  /** JSON array of `transfer_peers.id`: the primaries, asked in order. */
  peers: text('peers').notNull().default('[]'),
  /** How often the zone's SOA is checked when the primary sends no NOTIFY. */
  autoRefreshSeconds: integer('auto_refresh_seconds').notNull().default(86400),
  /**
   * Not read or written since migration 0023 (kept for workers of before it during a deploy; to be
   * dropped in a later release): the serial of the copy the zone holds and its last good check,
   * answered as `soa_serial` and `checked_time`, are the zone's (`zones.secondary_serial`,
   * transfers/held-copy.ts). An account move already copies only the columns the destination
   * has (shards/move-rows.ts), so shards may drop them one after another.
   */
  soaSerial: integer('soa_serial'),
  createdOn: text('created_on').notNull(),
  modifiedOn: text('modified_on').notNull(),
  /** Not read or written since migration 0023 (see `soaSerial`). */
  checkedOn: text('checked_on'),
})

/**
 * The SOA serial each commit of a zone produced, keyed by the change sequence it committed up to:
 * how an IXFR finds the change-log entries after a secondary's serial. Written by a trigger on
 * `zones` (migration 0018) whenever a commit moves the serial; pruned with the change log.
 */
export const zoneSerials = sqliteTable(
  'zone_serials',
  {
    zoneId: text('zone_id').notNull(),
    seq: integer('seq').notNull(),
    serial: integer('serial').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.zoneId, t.seq] }),
    index('zone_serials_serial').on(t.zoneId, t.serial),
  ]
)

/**
 * An account's catalog zone (RFC 9432, `/accounts/{id}/secondary_dns/catalog`): its name, the peers
 * that get it, and its SOA serial. The members are not stored: they are read from `zones` and
 * `zone_transfers_outgoing` whenever the catalog is transferred. The row outlives a DELETE
 * (`deleted_on` set) so that a catalog made again never reuses a serial; triggers (migrations
 * 0020, 0022) move `serial` whenever the membership changes.
 */
export const transferCatalogs = sqliteTable(
  'transfer_catalogs',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    /** The catalog zone's name, lower case, no final dot. */
    name: text('name').notNull(),
    /** JSON array of `transfer_peers.id`: the secondaries that get NOTIFY and may transfer it. */
    peers: text('peers').notNull().default('[]'),
    /** 1 while the catalog is served and announced. */
    enabled: integer('enabled').notNull().default(1),
    /** The catalog's SOA serial: each change sets it to max(serial + 1, now in epoch seconds). */
    serial: integer('serial').notNull(),
    createdOn: text('created_on').notNull(),
    modifiedOn: text('modified_on').notNull(),
    /** Set by DELETE: the account has no catalog, but its serial is kept. */
    deletedOn: text('deleted_on'),
  },
  (t) => [
    uniqueIndex('transfer_catalogs_account').on(t.accountId),
    index('transfer_catalogs_name').on(t.name),
  ]
)
