/**
 * @module D1 schema (drizzle). `pnpm db:generate` turns it into SQL under `migrations/`.
 */
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

export const accounts = sqliteTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Per-account cap on changes in one batch; null means the deployment default. */
  maxBatchChanges: integer('max_batch_changes'),
  /** Requests each of the account's tokens may make per rate-limit window; null: the default. */
  apiRateLimit: integer('api_rate_limit'),
  createdOn: text('created_on').notNull(),
})

/**
 * Account-level audit trail (record changes are audited in `change_log`): who made, or revoked,
 * which API token. Never holds a token's secret or its hash.
 */
export const auditLogs = sqliteTable(
  'audit_logs',
  {
    id: text('id').primaryKey(),
    /** The account the token belongs to; null for tokens made by an administrator on /user/tokens. */
    accountId: text('account_id'),
    /** 'token_create' | 'token_delete' */
    action: text('action').notNull(),
    /** Token id of the caller ('dev' for the local dev token). */
    actorTokenId: text('actor_token_id').notNull(),
    /** The client address as the edge reported it. */
    actorIp: text('actor_ip'),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    resourceName: text('resource_name'),
    /** JSON: the resource before and after the change (null for creates / deletes). */
    oldValue: text('old_value'),
    newValue: text('new_value'),
    createdOn: text('created_on').notNull(),
  },
  (t) => [
    index('audit_logs_account').on(t.accountId, t.createdOn),
    index('audit_logs_created').on(t.createdOn),
  ]
)

export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** SHA-256 hex of the secret; the secret itself is shown once and never stored. */
    tokenHash: text('token_hash').notNull(),
    status: text('status').notNull().default('active'),
    /** JSON: Cloudflare-shaped policies `[{effect, permission_groups:[{id,name}], resources:{...}}]`. */
    policies: text('policies').notNull(),
    issuedOn: text('issued_on').notNull(),
    modifiedOn: text('modified_on').notNull(),
    expiresOn: text('expires_on'),
    notBefore: text('not_before'),
    /** Owning account for tokens made under /accounts/{id}/tokens; null for tokens made by an admin. */
    accountId: text('account_id'),
    lastUsedOn: text('last_used_on'),
    /**
     * Full access, like the local dev token: set only by the bootstrap of a fresh deployment
     * (scripts/bootstrap.mjs); the API never creates such a token.
     */
    admin: integer('admin', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [uniqueIndex('api_tokens_hash').on(t.tokenHash)]
)

export const zones = sqliteTable(
  'zones',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    /** Labels reversed (`com.example`): zones below a name are one index range, with no LIKE pattern. */
    nameRev: text('name_rev').notNull().default(''),
    /**
     * 'pending' until its owner proves control of the name (docs/zone-ownership.md), 'active',
     * 'moving' while an account move fences it on its shard, 'copying' for a move's copy on the
     * destination shard until the final pass, or 'deleted' from DELETE until the erase has
     * removed its records and the row.
     */
    status: text('status').notNull().default('active'),
    type: text('type').notNull().default('full'),
    paused: integer('paused', { mode: 'boolean' }).notNull().default(false),
    nameServers: text('name_servers').notNull(),
    vanityNameServers: text('vanity_name_servers').notNull().default('[]'),
    soaMname: text('soa_mname').notNull(),
    soaRname: text('soa_rname').notNull(),
    soaRefresh: integer('soa_refresh').notNull().default(10000),
    soaRetry: integer('soa_retry').notNull().default(2400),
    soaExpire: integer('soa_expire').notNull().default(604800),
    soaMinimum: integer('soa_minimum').notNull().default(1800),
    soaTtl: integer('soa_ttl').notNull().default(3600),
    nsTtl: integer('ns_ttl').notNull().default(86400),
    proxyIpv4: text('proxy_ipv4').notNull().default('[]'),
    proxyIpv6: text('proxy_ipv6').notNull().default('[]'),
    serial: integer('serial').notNull(),
    /** Optimistic-concurrency guard: every write batch bumps it and fails if it moved. */
    version: integer('version').notNull().default(0),
    /** Highest change-log sequence committed for this zone. */
    changeSeq: integer('change_seq').notNull().default(0),
    createdOn: text('created_on').notNull(),
    modifiedOn: text('modified_on').notNull(),
    activatedOn: text('activated_on'),
    /**
     * JSON `DnssecState` (workers/api/src/dnssec/state.ts): status, signing keys (private keys
     * sealed with the DNSSEC_KEY_ENCRYPTION_KEY secret), modified time. Null: never enabled.
     */
    dnssec: text('dnssec'),
    /** The value its owner publishes in a TXT record to prove control of the name while pending. */
    verificationKey: text('verification_key'),
    /**
     * A secondary zone whose primary has not answered a check for its SOA expire interval: it is
     * not answered (SERVFAIL) until a check succeeds again (docs/zone-transfers.md).
     */
    secondaryExpired: integer('secondary_expired', { mode: 'boolean' }).notNull().default(false),
    /**
     * The copy of its primary's zone a secondary zone holds (transfers/held-copy.ts), kept on the
     * zone so that it outlives the zone's incoming settings: the primary's serial of the last
     * transfer committed (null: none), when a primary last confirmed that copy (the transfer, or a
     * check that found nothing newer), and the primary it came from (`address#port`).
     */
    secondarySerial: integer('secondary_serial'),
    secondaryCheckedOn: text('secondary_checked_on'),
    secondarySource: text('secondary_source'),
    /**
     * What that copy lacks of the primary's zone: the records its transfers left out, by type, and
     * the record mapping that judged it (JSON `{mapping, types: [{type, count, reason}]}`; a bare
     * array of types is mapping 1's; transfers/skipped-records.ts); null: not reported yet.
     */
    secondarySkipped: text('secondary_skipped'),
  },
  (t) => [
    // A deleted zone keeps its row until its records are erased in chunks; its name is free at once.
    // One active zone per name; the same name may be pending in several accounts, once in each.
    index('zones_name')
      .on(t.name)
      .where(sql`status != 'deleted'`),
    uniqueIndex('zones_active_name')
      .on(t.name)
      .where(sql`status = 'active'`),
    uniqueIndex('zones_account_live_name')
      .on(t.accountId, t.name)
      .where(sql`status != 'deleted'`),
    index('zones_account').on(t.accountId, t.name),
    index('zones_name_rev').on(t.nameRev),
    // `GET /zones?order=status`: the page is an index range, never a sort of every zone. The type
    // lets the list's count (which leaves internal zones out unless `type` names them) read this
    // index alone.
    index('zones_status').on(t.status, t.name, t.type),
  ]
)

export const dnsRecords = sqliteTable(
  'dns_records',
  {
    id: text('id').primaryKey(),
    zoneId: text('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Labels reversed (`com.example.www`): names below X and enclosing names are range scans. */
    nameRev: text('name_rev').notNull(),
    type: text('type').notNull(),
    content: text('content').notNull(),
    data: text('data'),
    priority: integer('priority'),
    ttl: integer('ttl').notNull().default(1),
    proxied: integer('proxied', { mode: 'boolean' }).notNull().default(false),
    comment: text('comment'),
    tags: text('tags').notNull().default('[]'),
    settings: text('settings').notNull().default('{}'),
    createdOn: text('created_on').notNull(),
    modifiedOn: text('modified_on').notNull(),
    commentModifiedOn: text('comment_modified_on'),
    tagsModifiedOn: text('tags_modified_on'),
  },
  (t) => [
    // One index serves uniqueness, lookups by name (name_rev = reversed name) and "names below X" ranges.
    // Priority is part of a record's identity (MX 10 and MX 20 to one host are two RRs); NULL
    // would compare distinct in a unique index, so it is folded to -1.
    uniqueIndex('dns_records_identity').on(
      t.zoneId,
      t.nameRev,
      t.type,
      t.content,
      sql`ifnull(${t.priority}, -1)`
    ),
    index('dns_records_zone_type').on(t.zoneId, t.type, t.name),
  ]
)

/** Transactional outbox and audit trail: written in the same D1 batch as the change it describes. */
export const changeLog = sqliteTable(
  'change_log',
  {
    zoneId: text('zone_id').notNull(),
    seq: integer('seq').notNull(),
    /**
     * 'create' | 'update' | 'delete' | 'zone' (zone settings) | 'soa' (a secondary zone's SOA set
     * by an IXFR; `before` the SOA it replaced) | 'zone_delete' | 'full' (rebuild request) |
     * 'replace' (a transfer replaced the zone's records whole: built in full)
     */
    op: text('op').notNull(),
    recordId: text('record_id'),
    oldName: text('old_name'),
    newName: text('new_name'),
    type: text('type'),
    /** Audit trail: who made the change (token id, 'dev' for the dev token) and the record as it was
     * before it, as a JSON array of dns_records column values (null for creates). The state after a
     * change is the next change's `before`, or the live row. */
    tokenId: text('token_id'),
    before: text('before'),
    createdOn: text('created_on').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.zoneId, t.seq] }),
    // Lets the propagation sweep find deleted zones whose purge has not been built yet.
    index('change_log_zone_delete')
      .on(t.zoneId, t.seq)
      .where(sql`op = 'zone_delete'`),
  ]
)

/** Build progress of each zone's ZoneBuilder, written by the builder (propagation endpoint, sweep). */
export const buildState = sqliteTable('build_state', {
  zoneId: text('zone_id').primaryKey(),
  /** Kept after the zone row is deleted, so a purge can be tracked. */
  zoneName: text('zone_name').notNull(),
  /** Highest change-log sequence whose effect is in KV. */
  builtSeq: integer('built_seq').notNull().default(0),
  /** Epoch ms of the last completed build pass. */
  builtAt: integer('built_at'),
  /** Epoch ms of the last completed full build. */
  lastFullBuildAt: integer('last_full_build_at'),
  /** Epoch ms of the last failed pass and its message; cleared by the next success. */
  lastErrorAt: integer('last_error_at'),
  lastError: text('last_error'),
})

/**
 * Zones whose committed change log is ahead of what their builder has built: the propagation
 * sweep's work list, so it never scans every zone. A row is written in the same transaction as
 * every commit (a trigger on `zones.change_seq`, hand-written in migration 0013, so no write path
 * can miss it) and removed by the builder once it has built up to `seq`.
 */
export const zonesBehind = sqliteTable(
  'zones_behind',
  {
    zoneId: text('zone_id').primaryKey(),
    /** The zone's change sequence at its latest commit. */
    seq: integer('seq').notNull(),
    /** Epoch ms the sweep last notified the builder about it (0: never); the sweep takes the oldest first. */
    notifiedAt: integer('notified_at').notNull().default(0),
  },
  (t) => [index('zones_behind_notified').on(t.notifiedAt)]
)

/**
 * Records of a large zone-file import on their way in: written in bounded chunks (each its own
 * small transaction), invisible to every reader, then moved into `dns_records` and `change_log` by
 * one commit batch of bounded statements. Rows are removed after the commit or a failure; the
 * cron removes those of an import whose worker died (older than an hour).
 */
export const importStaging = sqliteTable(
  'import_staging',
  {
    importId: text('import_id').notNull(),
    /** Position in the import: the record's change-log sequence is the zone's sequence + ord + 1. */
    ord: integer('ord').notNull(),
    zoneId: text('zone_id').notNull(),
    /** The record as a JSON array of dns_records column values (RECORD_COLUMNS order). */
    row: text('row').notNull(),
    createdOn: text('created_on').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.ord] }),
    index('import_staging_created').on(t.createdOn),
  ]
)

/**
 * The shard directory (read and written on the home database, shard 0; the tables exist on every
 * shard because every shard runs the same migrations, but only shard 0's are used). See
 * docs/shards.md.
 *
 * An account's zones all live on one shard: `directory_accounts` places the account, and
 * `state` = 'moving' fences its writes while it is copied to another shard.
 */
export const directoryAccounts = sqliteTable(
  'directory_accounts',
  {
    accountId: text('account_id').primaryKey(),
    /** Index of the shard binding (`DB_0`/`DB`, `DB_1`, …) holding the account's zones. */
    shard: integer('shard').notNull(),
    /** 'active', or 'moving' while an account move copies it (writes answer a retryable error). */
    state: text('state').notNull().default('active'),
    /** Bumped by every completed move: cached routes older than it are stale. */
    epoch: integer('epoch').notNull().default(0),
    modifiedOn: text('modified_on').notNull(),
  },
  (t) => [index('directory_accounts_shard').on(t.shard)]
)

/**
 * Every live zone name across all shards: the unique index over active names makes a name's
 * activation atomic and platform-wide, `name_rev` (labels reversed) makes the zones below a name one
 * index range.
 */
export const directoryZones = sqliteTable(
  'directory_zones',
  {
    zoneId: text('zone_id').primaryKey(),
    accountId: text('account_id').notNull(),
    /** Null once the zone is deleted: the name is free again, the row still routes its erase and purge. */
    name: text('name'),
    nameRev: text('name_rev'),
    /** 'pending' (the name may be pending in several accounts) or 'active' (one account holds it). */
    status: text('status').notNull().default('active'),
    createdOn: text('created_on').notNull(),
  },
  (t) => [
    uniqueIndex('directory_zones_name')
      .on(t.name)
      .where(sql`status = 'active'`),
    uniqueIndex('directory_zones_account_name').on(t.accountId, t.name),
    index('directory_zones_name_rev').on(t.nameRev),
    index('directory_zones_account').on(t.accountId),
  ]
)

/**
 * The last serial of a deleted zone whose serial had run ahead of the clock (more than one commit a
 * second), by name: a zone made again under that name starts after it, so a secondary still holding
 * the deleted zone sees the new one as newer (serials are never reused for a name). On the home
 * database; a row is forgotten by the cron once the clock has passed its serial.
 */
export const directoryNameSerials = sqliteTable('directory_name_serials', {
  name: text('name').primaryKey(),
  serial: integer('serial').notNull(),
  deletedOn: text('deleted_on').notNull(),
})

/**
 * Accounts whose writes this shard refuses because a move took them elsewhere (or is copying them
 * away right now): zone creation checks it in its commit batch, so a creator routed by a stale
 * directory read cannot add a zone to the shard the account is leaving. Cleared on the shard an
 * account moves to.
 */
export const shardFences = sqliteTable('shard_fences', {
  accountId: text('account_id').primaryKey(),
  fencedOn: text('fenced_on').notNull(),
})
