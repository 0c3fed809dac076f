// Generated from migrations/*.sql by `pnpm db:generate` (scripts/lib/bundle-migrations.mjs). Do not edit.
/** D1 migrations in the order wrangler applies them, each split into its statements. */
export const BUNDLED_MIGRATIONS: readonly { name: string; statements: readonly string[] }[] = [
  {
    "name": "0000_create_schema.sql",
    "statements": [
      "CREATE TABLE `accounts` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`name` text NOT NULL,\n\t`max_batch_changes` integer,\n\t`created_on` text NOT NULL\n);",
      "CREATE TABLE `api_tokens` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`name` text NOT NULL,\n\t`token_hash` text NOT NULL,\n\t`status` text DEFAULT 'active' NOT NULL,\n\t`policies` text NOT NULL,\n\t`issued_on` text NOT NULL,\n\t`modified_on` text NOT NULL,\n\t`expires_on` text,\n\t`last_used_on` text\n);",
      "CREATE UNIQUE INDEX `api_tokens_hash` ON `api_tokens` (`token_hash`);",
      "CREATE TABLE `audit_log` (\n\t`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,\n\t`zone_id` text NOT NULL,\n\t`seq` integer NOT NULL,\n\t`token_id` text,\n\t`action` text NOT NULL,\n\t`record_id` text,\n\t`before` text,\n\t`after` text,\n\t`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL\n);",
      "CREATE INDEX `audit_zone_seq` ON `audit_log` (`zone_id`,`seq`);",
      "CREATE TABLE `change_log` (\n\t`zone_id` text NOT NULL,\n\t`seq` integer NOT NULL,\n\t`op` text NOT NULL,\n\t`record_id` text,\n\t`old_name` text,\n\t`new_name` text,\n\t`type` text,\n\t`created_on` text NOT NULL,\n\tPRIMARY KEY(`zone_id`, `seq`)\n);",
      "CREATE TABLE `dns_records` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`zone_id` text NOT NULL,\n\t`name` text NOT NULL,\n\t`name_rev` text NOT NULL,\n\t`type` text NOT NULL,\n\t`content` text NOT NULL,\n\t`data` text,\n\t`priority` integer,\n\t`ttl` integer DEFAULT 1 NOT NULL,\n\t`proxied` integer DEFAULT false NOT NULL,\n\t`comment` text,\n\t`tags` text DEFAULT '[]' NOT NULL,\n\t`settings` text DEFAULT '{}' NOT NULL,\n\t`created_on` text NOT NULL,\n\t`modified_on` text NOT NULL,\n\t`comment_modified_on` text,\n\t`tags_modified_on` text,\n\tFOREIGN KEY (`zone_id`) REFERENCES `zones`(`id`) ON UPDATE no action ON DELETE cascade\n);",
      "CREATE UNIQUE INDEX `dns_records_identity` ON `dns_records` (`zone_id`,`name`,`type`,`content`);",
      "CREATE INDEX `dns_records_zone_rev` ON `dns_records` (`zone_id`,`name_rev`);",
      "CREATE INDEX `dns_records_zone_type` ON `dns_records` (`zone_id`,`type`,`name`);",
      "CREATE TABLE `zones` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`account_id` text NOT NULL,\n\t`name` text NOT NULL,\n\t`status` text DEFAULT 'active' NOT NULL,\n\t`type` text DEFAULT 'full' NOT NULL,\n\t`paused` integer DEFAULT false NOT NULL,\n\t`name_servers` text NOT NULL,\n\t`vanity_name_servers` text DEFAULT '[]' NOT NULL,\n\t`soa_mname` text NOT NULL,\n\t`soa_rname` text NOT NULL,\n\t`soa_refresh` integer DEFAULT 10000 NOT NULL,\n\t`soa_retry` integer DEFAULT 2400 NOT NULL,\n\t`soa_expire` integer DEFAULT 604800 NOT NULL,\n\t`soa_minimum` integer DEFAULT 1800 NOT NULL,\n\t`soa_ttl` integer DEFAULT 3600 NOT NULL,\n\t`ns_ttl` integer DEFAULT 86400 NOT NULL,\n\t`proxy_ipv4` text DEFAULT '[]' NOT NULL,\n\t`proxy_ipv6` text DEFAULT '[]' NOT NULL,\n\t`serial` integer NOT NULL,\n\t`version` integer DEFAULT 0 NOT NULL,\n\t`change_seq` integer DEFAULT 0 NOT NULL,\n\t`created_on` text NOT NULL,\n\t`modified_on` text NOT NULL,\n\t`activated_on` text,\n\tFOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action\n);",
      "CREATE UNIQUE INDEX `zones_name` ON `zones` (`name`);",
      "CREATE INDEX `zones_account` ON `zones` (`account_id`,`name`);"
    ]
  },
  {
    "name": "0001_default_account.sql",
    "statements": [
      "-- Every deployment starts with one account that zones can be created in.\nINSERT OR IGNORE INTO accounts (id, name, max_batch_changes, created_on)\nVALUES ('a0000000000000000000000000000001', 'Default account', NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));"
    ]
  },
  {
    "name": "0002_create_build_state.sql",
    "statements": [
      "CREATE TABLE `build_state` (\n\t`zone_id` text PRIMARY KEY NOT NULL,\n\t`zone_name` text NOT NULL,\n\t`built_seq` integer DEFAULT 0 NOT NULL,\n\t`built_at` integer,\n\t`last_full_build_at` integer,\n\t`last_error_at` integer,\n\t`last_error` text\n);",
      "CREATE INDEX `change_log_zone_delete` ON `change_log` (`zone_id`,`seq`) WHERE op = 'zone_delete';"
    ]
  },
  {
    "name": "0003_audit_in_change_log.sql",
    "statements": [
      "DROP TABLE `audit_log`;",
      "DROP INDEX `dns_records_zone_rev`;",
      "DROP INDEX `dns_records_identity`;",
      "CREATE UNIQUE INDEX `dns_records_identity` ON `dns_records` (`zone_id`,`name_rev`,`type`,`content`);",
      "ALTER TABLE `change_log` ADD `token_id` text;",
      "ALTER TABLE `change_log` ADD `before` text;",
      "ALTER TABLE `change_log` ADD `after` text;"
    ]
  },
  {
    "name": "0004_audit_before_only.sql",
    "statements": [
      "ALTER TABLE `change_log` DROP COLUMN `after`;"
    ]
  },
  {
    "name": "0005_token_account_not_before.sql",
    "statements": [
      "ALTER TABLE `api_tokens` ADD `not_before` text;",
      "ALTER TABLE `api_tokens` ADD `account_id` text;"
    ]
  },
  {
    "name": "0006_record_identity_priority.sql",
    "statements": [
      "DROP INDEX `dns_records_identity`;",
      "CREATE UNIQUE INDEX `dns_records_identity` ON `dns_records` (`zone_id`,`name_rev`,`type`,`content`,ifnull(`priority`, -1));"
    ]
  },
  {
    "name": "0007_fully_qualified_svcb_naptr_targets.sql",
    "statements": [
      "-- SVCB/HTTPS targets and NAPTR replacements are stored fully qualified (with the trailing dot), the\n-- way Cloudflare answers them. Rows written before keep their wire form; only the text gains the dot.\nUPDATE `dns_records` SET\n  `data` = json_set(`data`, '$.target', json_extract(`data`, '$.target') || '.'),\n  `content` = CAST(json_extract(`data`, '$.priority') AS TEXT) || ' ' || json_extract(`data`, '$.target') || '.'\n    || CASE WHEN ifnull(json_extract(`data`, '$.value'), '') = '' THEN '' ELSE ' ' || json_extract(`data`, '$.value') END\nWHERE `type` IN ('SVCB', 'HTTPS') AND `data` IS NOT NULL AND json_extract(`data`, '$.target') NOT LIKE '%.';",
      "UPDATE `dns_records` SET\n  `data` = json_set(`data`, '$.replacement', json_extract(`data`, '$.replacement') || '.'),\n  `content` = `content` || '.'\nWHERE `type` = 'NAPTR' AND `data` IS NOT NULL AND json_extract(`data`, '$.replacement') NOT LIKE '%.';"
    ]
  },
  {
    "name": "0008_zone_name_rev.sql",
    "statements": [
      "DROP INDEX `zones_name`;",
      "ALTER TABLE `zones` ADD `name_rev` text DEFAULT '' NOT NULL;",
      "CREATE INDEX `zones_name_rev` ON `zones` (`name_rev`);",
      "CREATE UNIQUE INDEX `zones_name` ON `zones` (`name`) WHERE status != 'deleted';",
      "-- Backfill: the zone name's labels in reverse order (`www.example.com` → `com.example.www`).\nUPDATE `zones` SET `name_rev` = (\n  WITH RECURSIVE parts(rest, acc) AS (\n    SELECT `zones`.`name` || '.', ''\n    UNION ALL\n    SELECT substr(rest, instr(rest, '.') + 1),\n           substr(rest, 1, instr(rest, '.') - 1) || CASE WHEN acc = '' THEN '' ELSE '.' || acc END\n      FROM parts WHERE rest != ''\n  )\n  SELECT acc FROM parts WHERE rest = ''\n);"
    ]
  },
  {
    "name": "0009_token_admin.sql",
    "statements": [
      "ALTER TABLE `api_tokens` ADD `admin` integer DEFAULT false NOT NULL;"
    ]
  },
  {
    "name": "0010_rebuild_for_kv_layout_v3.sql",
    "statements": [
      "-- KV layout v3 (text buckets, head slots): every existing zone gets a durable full-build request,\n-- so the propagation sweep (every minute, and at `pnpm dev` start) rebuilds it into the new layout.\nINSERT INTO `change_log` (`zone_id`, `seq`, `op`, `created_on`)\n  SELECT `id`, `change_seq` + 1, 'full', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM `zones` WHERE `status` != 'deleted';",
      "UPDATE `zones` SET `change_seq` = `change_seq` + 1, `version` = `version` + 1 WHERE `status` != 'deleted';"
    ]
  },
  {
    "name": "0011_zone_dnssec.sql",
    "statements": [
      "ALTER TABLE `zones` ADD `dnssec` text;"
    ]
  },
  {
    "name": "0012_import_staging.sql",
    "statements": [
      "CREATE TABLE `import_staging` (\n\t`import_id` text NOT NULL,\n\t`ord` integer NOT NULL,\n\t`zone_id` text NOT NULL,\n\t`row` text NOT NULL,\n\t`created_on` text NOT NULL,\n\tPRIMARY KEY(`import_id`, `ord`)\n);",
      "CREATE INDEX `import_staging_created` ON `import_staging` (`created_on`);"
    ]
  },
  {
    "name": "0013_zones_behind.sql",
    "statements": [
      "CREATE TABLE `zones_behind` (\n\t`zone_id` text PRIMARY KEY NOT NULL,\n\t`seq` integer NOT NULL,\n\t`notified_at` integer DEFAULT 0 NOT NULL\n);",
      "CREATE INDEX `zones_behind_notified` ON `zones_behind` (`notified_at`);",
      "CREATE INDEX `zones_status` ON `zones` (`status`,`name`);",
      "-- Every commit moves zones.change_seq (the version guard, a full-build request, or the insert of a\n-- new zone): these triggers note the zone as behind in the same transaction, whichever path wrote.\nCREATE TRIGGER `zones_behind_on_create` AFTER INSERT ON `zones`\nBEGIN\n  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)\n    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;\nEND;",
      "CREATE TRIGGER `zones_behind_on_commit` AFTER UPDATE OF `change_seq` ON `zones`\n  WHEN NEW.`change_seq` > OLD.`change_seq`\nBEGIN\n  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)\n    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;\nEND;",
      "-- A zone's deletion is logged with its own sequence: noted even if a writer logged it without the guard.\nCREATE TRIGGER `zones_behind_on_zone_delete` AFTER INSERT ON `change_log`\n  WHEN NEW.`op` = 'zone_delete'\nBEGIN\n  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`zone_id`, NEW.`seq`)\n    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;\nEND;",
      "-- Backfill: the zones behind now (live zones ahead of their build, deleted ones whose purge is not built).\nINSERT OR IGNORE INTO `zones_behind` (`zone_id`, `seq`)\n  SELECT z.`id`, z.`change_seq` FROM `zones` z LEFT JOIN `build_state` b ON b.`zone_id` = z.`id`\n   WHERE z.`change_seq` > coalesce(b.`built_seq`, 0);",
      "INSERT OR IGNORE INTO `zones_behind` (`zone_id`, `seq`)\n  SELECT c.`zone_id`, max(c.`seq`) FROM `change_log` c LEFT JOIN `build_state` b ON b.`zone_id` = c.`zone_id`\n   WHERE c.`op` = 'zone_delete' AND c.`seq` > coalesce(b.`built_seq`, 0) GROUP BY c.`zone_id`;"
    ]
  },
  {
    "name": "0014_shard_directory.sql",
    "statements": [
      "CREATE TABLE `directory_accounts` (\n\t`account_id` text PRIMARY KEY NOT NULL,\n\t`shard` integer NOT NULL,\n\t`state` text DEFAULT 'active' NOT NULL,\n\t`epoch` integer DEFAULT 0 NOT NULL,\n\t`modified_on` text NOT NULL\n);",
      "CREATE INDEX `directory_accounts_shard` ON `directory_accounts` (`shard`);",
      "CREATE TABLE `directory_zones` (\n\t`zone_id` text PRIMARY KEY NOT NULL,\n\t`account_id` text NOT NULL,\n\t`name` text,\n\t`name_rev` text,\n\t`created_on` text NOT NULL\n);",
      "CREATE UNIQUE INDEX `directory_zones_name` ON `directory_zones` (`name`);",
      "CREATE INDEX `directory_zones_name_rev` ON `directory_zones` (`name_rev`);",
      "CREATE INDEX `directory_zones_account` ON `directory_zones` (`account_id`);",
      "CREATE TABLE `shard_fences` (\n\t`account_id` text PRIMARY KEY NOT NULL,\n\t`fenced_on` text NOT NULL\n);",
      "-- A database that predates shards is shard 0, holding every account and zone it already has.\nINSERT INTO `directory_accounts` (`account_id`, `shard`, `modified_on`) SELECT `id`, 0, `created_on` FROM `accounts`;",
      "INSERT INTO `directory_zones` (`zone_id`, `account_id`, `name`, `name_rev`, `created_on`)\n  SELECT `id`, `account_id`, CASE WHEN `status` = 'deleted' THEN NULL ELSE `name` END,\n         CASE WHEN `status` = 'deleted' THEN NULL ELSE `name_rev` END, `created_on` FROM `zones`;"
    ]
  },
  {
    "name": "0015_token_audit_and_rate_limit.sql",
    "statements": [
      "CREATE TABLE `audit_logs` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`account_id` text,\n\t`action` text NOT NULL,\n\t`actor_token_id` text NOT NULL,\n\t`actor_ip` text,\n\t`resource_type` text NOT NULL,\n\t`resource_id` text NOT NULL,\n\t`resource_name` text,\n\t`old_value` text,\n\t`new_value` text,\n\t`created_on` text NOT NULL\n);",
      "CREATE INDEX `audit_logs_account` ON `audit_logs` (`account_id`,`created_on`);",
      "CREATE INDEX `audit_logs_created` ON `audit_logs` (`created_on`);",
      "ALTER TABLE `accounts` ADD `api_rate_limit` integer;"
    ]
  },
  {
    "name": "0016_zone_ownership.sql",
    "statements": [
      "DROP INDEX `directory_zones_name`;",
      "ALTER TABLE `directory_zones` ADD `status` text DEFAULT 'active' NOT NULL;",
      "CREATE UNIQUE INDEX `directory_zones_account_name` ON `directory_zones` (`account_id`,`name`);",
      "CREATE UNIQUE INDEX `directory_zones_name` ON `directory_zones` (`name`) WHERE status = 'active';",
      "DROP INDEX `zones_name`;",
      "ALTER TABLE `zones` ADD `verification_key` text;",
      "CREATE UNIQUE INDEX `zones_active_name` ON `zones` (`name`) WHERE status = 'active';",
      "CREATE UNIQUE INDEX `zones_account_live_name` ON `zones` (`account_id`,`name`) WHERE status != 'deleted';",
      "CREATE INDEX `zones_name` ON `zones` (`name`) WHERE status != 'deleted';",
      "-- A pending zone is never built (nothing of it is served), so it stays off the sweep's work list\n-- until it becomes active; its activation then notes it behind, in the same transaction.\nDROP TRIGGER `zones_behind_on_create`;",
      "CREATE TRIGGER `zones_behind_on_create` AFTER INSERT ON `zones`\n  WHEN NEW.`status` != 'pending'\nBEGIN\n  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)\n    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;\nEND;",
      "DROP TRIGGER `zones_behind_on_commit`;",
      "CREATE TRIGGER `zones_behind_on_commit` AFTER UPDATE OF `change_seq` ON `zones`\n  WHEN NEW.`change_seq` > OLD.`change_seq` AND NEW.`status` != 'pending'\nBEGIN\n  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)\n    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;\nEND;",
      "CREATE TRIGGER `zones_behind_on_activate` AFTER UPDATE OF `status` ON `zones`\n  WHEN OLD.`status` = 'pending' AND NEW.`status` = 'active'\nBEGIN\n  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)\n    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;\nEND;",
      "-- An account move restores each zone's status from activated_on: every zone live so far is active.\nUPDATE `zones` SET `activated_on` = `created_on` WHERE `activated_on` IS NULL AND `status` != 'deleted';"
    ]
  },
  {
    "name": "0017_zone_transfers.sql",
    "statements": [
      "CREATE TABLE `transfer_acls` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`account_id` text NOT NULL,\n\t`name` text NOT NULL,\n\t`ip_range` text NOT NULL,\n\t`created_on` text NOT NULL,\n\t`modified_on` text NOT NULL\n);",
      "CREATE INDEX `transfer_acls_account` ON `transfer_acls` (`account_id`);",
      "CREATE TABLE `transfer_peers` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`account_id` text NOT NULL,\n\t`name` text NOT NULL,\n\t`ip` text,\n\t`port` integer,\n\t`ixfr_enable` integer DEFAULT 0 NOT NULL,\n\t`tsig_id` text,\n\t`created_on` text NOT NULL,\n\t`modified_on` text NOT NULL\n);",
      "CREATE INDEX `transfer_peers_account` ON `transfer_peers` (`account_id`);",
      "CREATE TABLE `transfer_tsigs` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`account_id` text NOT NULL,\n\t`name` text NOT NULL,\n\t`algo` text NOT NULL,\n\t`secret` text NOT NULL,\n\t`created_on` text NOT NULL,\n\t`modified_on` text NOT NULL\n);",
      "CREATE UNIQUE INDEX `transfer_tsigs_account_name` ON `transfer_tsigs` (`account_id`,`name`);",
      "CREATE TABLE `zone_transfers_incoming` (\n\t`zone_id` text PRIMARY KEY NOT NULL,\n\t`name` text NOT NULL,\n\t`peers` text DEFAULT '[]' NOT NULL,\n\t`auto_refresh_seconds` integer DEFAULT 86400 NOT NULL,\n\t`soa_serial` integer,\n\t`created_on` text NOT NULL,\n\t`modified_on` text NOT NULL,\n\t`checked_on` text\n);",
      "CREATE TABLE `zone_transfers_outgoing` (\n\t`zone_id` text PRIMARY KEY NOT NULL,\n\t`name` text NOT NULL,\n\t`peers` text DEFAULT '[]' NOT NULL,\n\t`enabled` integer DEFAULT 0 NOT NULL,\n\t`created_on` text NOT NULL,\n\t`modified_on` text NOT NULL,\n\t`checked_on` text,\n\t`last_transferred_on` text\n);"
    ]
  },
  {
    "name": "0018_zone_serials.sql",
    "statements": [
      "CREATE TABLE `zone_serials` (\n\t`zone_id` text NOT NULL,\n\t`seq` integer NOT NULL,\n\t`serial` integer NOT NULL,\n\tPRIMARY KEY(`zone_id`, `seq`)\n);",
      "CREATE INDEX `zone_serials_serial` ON `zone_serials` (`zone_id`,`serial`);",
      "-- Every commit that moves a zone's serial notes (change_seq, serial) in the same transaction,\n-- whichever path wrote: an IXFR maps a secondary's serial to the change-log entries after it.\nCREATE TRIGGER `zone_serials_on_create` AFTER INSERT ON `zones`\nBEGIN\n  INSERT OR REPLACE INTO `zone_serials` (`zone_id`, `seq`, `serial`)\n    VALUES (NEW.`id`, NEW.`change_seq`, NEW.`serial`);\nEND;",
      "CREATE TRIGGER `zone_serials_on_commit` AFTER UPDATE OF `change_seq`, `serial` ON `zones`\n  WHEN NEW.`serial` != OLD.`serial`\nBEGIN\n  INSERT OR REPLACE INTO `zone_serials` (`zone_id`, `seq`, `serial`)\n    VALUES (NEW.`id`, NEW.`change_seq`, NEW.`serial`);\nEND;"
    ]
  },
  {
    "name": "0019_secondary_expired.sql",
    "statements": [
      "ALTER TABLE `zones` ADD `secondary_expired` integer DEFAULT false NOT NULL;"
    ]
  },
  {
    "name": "0020_catalog_zones.sql",
    "statements": [
      "CREATE TABLE `transfer_catalogs` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`account_id` text NOT NULL,\n\t`name` text NOT NULL,\n\t`peers` text DEFAULT '[]' NOT NULL,\n\t`enabled` integer DEFAULT 1 NOT NULL,\n\t`serial` integer NOT NULL,\n\t`created_on` text NOT NULL,\n\t`modified_on` text NOT NULL,\n\t`deleted_on` text\n);",
      "CREATE UNIQUE INDEX `transfer_catalogs_account` ON `transfer_catalogs` (`account_id`);",
      "CREATE INDEX `transfer_catalogs_name` ON `transfer_catalogs` (`name`);",
      "-- A catalog's members are the account's active (or moving) zones whose outgoing transfers are\n-- enabled. Every write that changes that set moves the account's catalog serial, in the same\n-- transaction: max(serial + 1, now in epoch seconds), so a serial is never reused.\nCREATE TRIGGER `catalog_serial_on_outgoing_insert` AFTER INSERT ON `zone_transfers_outgoing`\n  WHEN NEW.`enabled` = 1\nBEGIN\n  UPDATE `transfer_catalogs`\n    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))\n    WHERE `account_id` = (SELECT `account_id` FROM `zones` WHERE `id` = NEW.`zone_id`\n      AND `status` IN ('active', 'moving'));\nEND;",
      "CREATE TRIGGER `catalog_serial_on_outgoing_enable` AFTER UPDATE OF `enabled` ON `zone_transfers_outgoing`\n  WHEN NEW.`enabled` != OLD.`enabled`\nBEGIN\n  UPDATE `transfer_catalogs`\n    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))\n    WHERE `account_id` = (SELECT `account_id` FROM `zones` WHERE `id` = NEW.`zone_id`\n      AND `status` IN ('active', 'moving'));\nEND;",
      "CREATE TRIGGER `catalog_serial_on_outgoing_delete` AFTER DELETE ON `zone_transfers_outgoing`\n  WHEN OLD.`enabled` = 1\nBEGIN\n  UPDATE `transfer_catalogs`\n    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))\n    WHERE `account_id` = (SELECT `account_id` FROM `zones` WHERE `id` = OLD.`zone_id`\n      AND `status` IN ('active', 'moving'));\nEND;",
      "CREATE TRIGGER `catalog_serial_on_zone_status` AFTER UPDATE OF `status` ON `zones`\n  WHEN (NEW.`status` IN ('active', 'moving')) != (OLD.`status` IN ('active', 'moving'))\n    AND EXISTS (SELECT 1 FROM `zone_transfers_outgoing` WHERE `zone_id` = NEW.`id` AND `enabled` = 1)\nBEGIN\n  UPDATE `transfer_catalogs`\n    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))\n    WHERE `account_id` = NEW.`account_id`;\nEND;"
    ]
  },
  {
    "name": "0021_secondary_copy.sql",
    "statements": [
      "ALTER TABLE `zones` ADD `secondary_serial` integer;",
      "ALTER TABLE `zones` ADD `secondary_checked_on` text;",
      "ALTER TABLE `zones` ADD `secondary_source` text;",
      "-- The copy each secondary zone holds, from its incoming settings: the serial of its last transfer\n-- and its last good check. The primary it came from was not recorded: the first one named stands\n-- for it (settings that no longer name that primary pull the zone by AXFR).\nUPDATE `zones` SET\n  `secondary_serial` = (SELECT `soa_serial` FROM `zone_transfers_incoming` WHERE `zone_id` = `zones`.`id`),\n  `secondary_checked_on` = (SELECT `checked_on` FROM `zone_transfers_incoming` WHERE `zone_id` = `zones`.`id`),\n  `secondary_source` = (\n    SELECT p.`ip` || '#' || p.`port` FROM `zone_transfers_incoming` AS i\n      JOIN `transfer_peers` AS p ON p.`id` = json_extract(i.`peers`, '$[0]')\n    WHERE i.`zone_id` = `zones`.`id`)\n  WHERE `id` IN (SELECT `zone_id` FROM `zone_transfers_incoming` WHERE `soa_serial` IS NOT NULL);"
    ]
  },
  {
    "name": "0022_catalog_primary_zones.sql",
    "statements": [
      "-- A catalog's members are primary zones only (type full or partial, the types outgoing transfers\n-- are configured on): a type change that makes a live zone with enabled outgoing transfers primary,\n-- or no longer primary, moves its account's catalog serial in the same transaction, as the other\n-- membership changes do (migration 0020).\nCREATE TRIGGER `catalog_serial_on_zone_type` AFTER UPDATE OF `type` ON `zones`\n  WHEN (NEW.`type` IN ('full', 'partial')) != (OLD.`type` IN ('full', 'partial'))\n    AND NEW.`status` IN ('active', 'moving')\n    AND EXISTS (SELECT 1 FROM `zone_transfers_outgoing` WHERE `zone_id` = NEW.`id` AND `enabled` = 1)\nBEGIN\n  UPDATE `transfer_catalogs`\n    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))\n    WHERE `account_id` = NEW.`account_id`;\nEND;"
    ]
  },
  {
    "name": "0023_incoming_copy_backfill.sql",
    "statements": [
      "-- Secondary zones' record of their copy (0021), taken again from the incoming settings where a\n-- worker of before 0021 committed a transfer after it (the zone's serial is the settings' serial\n-- and the record is not, or the record has no source), with a primary's port of NULL read as 53. From here on the zone row is\n-- the one home of these facts: the settings' `soa_serial` and `checked_on` are no longer read or\n-- written (dropped in a later release, once no worker of before 0021 can run).\nUPDATE `zones` SET\n  `secondary_serial` = (SELECT `soa_serial` FROM `zone_transfers_incoming` WHERE `zone_id` = `zones`.`id`),\n  `secondary_checked_on` = (SELECT `checked_on` FROM `zone_transfers_incoming` WHERE `zone_id` = `zones`.`id`),\n  `secondary_source` = (\n    SELECT p.`ip` || '#' || ifnull(p.`port`, 53) FROM `zone_transfers_incoming` AS i\n      JOIN `transfer_peers` AS p ON p.`id` = json_extract(i.`peers`, '$[0]')\n    WHERE i.`zone_id` = `zones`.`id`)\n  WHERE `type` = 'secondary' AND `id` IN (\n    SELECT i.`zone_id` FROM `zone_transfers_incoming` AS i\n    WHERE i.`soa_serial` IS NOT NULL AND i.`soa_serial` = `zones`.`serial`\n      AND (`zones`.`secondary_serial` IS NOT i.`soa_serial` OR `zones`.`secondary_source` IS NULL));",
      "-- Catalog members are primary zones only (0022): a catalog that listed a zone of another type (one\n-- changed from primary while its outgoing transfers stayed enabled) has lost it, so its serial moves\n-- and its secondaries transfer it again; nothing else would tell them.\nUPDATE `transfer_catalogs`\n  SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))\n  WHERE `deleted_on` IS NULL AND `account_id` IN (\n    SELECT z.`account_id` FROM `zones` AS z\n      JOIN `zone_transfers_outgoing` AS o ON o.`zone_id` = z.`id`\n    WHERE o.`enabled` = 1 AND z.`status` IN ('active', 'moving')\n      AND z.`type` NOT IN ('full', 'partial'));"
    ]
  },
  {
    "name": "0024_secondary_skipped.sql",
    "statements": [
      "-- What the copy a secondary zone holds lacks of its primary's zone: the records its transfers left\n-- out (types the records API does not hold, records it refuses), as a JSON array of\n-- {type, count, reason}. Null: no transfer has reported yet (copies made before this column).\nALTER TABLE `zones` ADD `secondary_skipped` text;"
    ]
  },
  {
    "name": "0025_zone_serials_upsert.sql",
    "statements": [
      "-- The triggers that note (change_seq, serial) in `zone_serials` (0018) upsert instead of\n-- `INSERT OR REPLACE`: SQLite applies the conflict policy of the statement that fires a trigger to\n-- the trigger's own statements, so an upsert of a zone row (`INSERT … ON CONFLICT DO UPDATE`, as an\n-- account move writes zones on the destination shard) made the trigger's insert ABORT on a\n-- (zone, seq) the destination already held, and the move's step failed every time it was retried.\nDROP TRIGGER `zone_serials_on_create`;",
      "CREATE TRIGGER `zone_serials_on_create` AFTER INSERT ON `zones`\nBEGIN\n  INSERT INTO `zone_serials` (`zone_id`, `seq`, `serial`)\n    VALUES (NEW.`id`, NEW.`change_seq`, NEW.`serial`)\n    ON CONFLICT (`zone_id`, `seq`) DO UPDATE SET `serial` = excluded.`serial`;\nEND;",
      "DROP TRIGGER `zone_serials_on_commit`;",
      "CREATE TRIGGER `zone_serials_on_commit` AFTER UPDATE OF `change_seq`, `serial` ON `zones`\n  WHEN NEW.`serial` != OLD.`serial`\nBEGIN\n  INSERT INTO `zone_serials` (`zone_id`, `seq`, `serial`)\n    VALUES (NEW.`id`, NEW.`change_seq`, NEW.`serial`)\n    ON CONFLICT (`zone_id`, `seq`) DO UPDATE SET `serial` = excluded.`serial`;\nEND;"
    ]
  },
  {
    "name": "0026_zones_status_type.sql",
    "statements": [
      "-- `zones_status` also holds the zone type: `GET /zones` leaves internal zones out unless `type`\n-- names them, and its total count then still reads this index alone, not every zone row.\nDROP INDEX `zones_status`;",
      "CREATE INDEX `zones_status` ON `zones` (`status`,`name`,`type`);"
    ]
  },
  {
    "name": "0027_deleted_zone_serials.sql",
    "statements": [
      "CREATE TABLE `directory_name_serials` (\n\t`name` text PRIMARY KEY NOT NULL,\n\t`serial` integer NOT NULL,\n\t`deleted_on` text NOT NULL\n);"
    ]
  }
]
