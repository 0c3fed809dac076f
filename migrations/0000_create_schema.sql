CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`max_batch_changes` integer,
	`created_on` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`policies` text NOT NULL,
	`issued_on` text NOT NULL,
	`modified_on` text NOT NULL,
	`expires_on` text,
	`last_used_on` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_hash` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`zone_id` text NOT NULL,
	`seq` integer NOT NULL,
	`token_id` text,
	`action` text NOT NULL,
	`record_id` text,
	`before` text,
	`after` text,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_zone_seq` ON `audit_log` (`zone_id`,`seq`);--> statement-breakpoint
CREATE TABLE `change_log` (
	`zone_id` text NOT NULL,
	`seq` integer NOT NULL,
	`op` text NOT NULL,
	`record_id` text,
	`old_name` text,
	`new_name` text,
	`type` text,
	`created_on` text NOT NULL,
	PRIMARY KEY(`zone_id`, `seq`)
);
--> statement-breakpoint
CREATE TABLE `dns_records` (
	`id` text PRIMARY KEY NOT NULL,
	`zone_id` text NOT NULL,
	`name` text NOT NULL,
	`name_rev` text NOT NULL,
	`type` text NOT NULL,
	`content` text NOT NULL,
	`data` text,
	`priority` integer,
	`ttl` integer DEFAULT 1 NOT NULL,
	`proxied` integer DEFAULT false NOT NULL,
	`comment` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`created_on` text NOT NULL,
	`modified_on` text NOT NULL,
	`comment_modified_on` text,
	`tags_modified_on` text,
	FOREIGN KEY (`zone_id`) REFERENCES `zones`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dns_records_identity` ON `dns_records` (`zone_id`,`name`,`type`,`content`);--> statement-breakpoint
CREATE INDEX `dns_records_zone_rev` ON `dns_records` (`zone_id`,`name_rev`);--> statement-breakpoint
CREATE INDEX `dns_records_zone_type` ON `dns_records` (`zone_id`,`type`,`name`);--> statement-breakpoint
CREATE TABLE `zones` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`type` text DEFAULT 'full' NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`name_servers` text NOT NULL,
	`vanity_name_servers` text DEFAULT '[]' NOT NULL,
	`soa_mname` text NOT NULL,
	`soa_rname` text NOT NULL,
	`soa_refresh` integer DEFAULT 10000 NOT NULL,
	`soa_retry` integer DEFAULT 2400 NOT NULL,
	`soa_expire` integer DEFAULT 604800 NOT NULL,
	`soa_minimum` integer DEFAULT 1800 NOT NULL,
	`soa_ttl` integer DEFAULT 3600 NOT NULL,
	`ns_ttl` integer DEFAULT 86400 NOT NULL,
	`proxy_ipv4` text DEFAULT '[]' NOT NULL,
	`proxy_ipv6` text DEFAULT '[]' NOT NULL,
	`serial` integer NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`change_seq` integer DEFAULT 0 NOT NULL,
	`created_on` text NOT NULL,
	`modified_on` text NOT NULL,
	`activated_on` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `zones_name` ON `zones` (`name`);--> statement-breakpoint
CREATE INDEX `zones_account` ON `zones` (`account_id`,`name`);