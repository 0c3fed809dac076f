CREATE TABLE `directory_accounts` (
	`account_id` text PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL,
	`state` text DEFAULT 'active' NOT NULL,
	`epoch` integer DEFAULT 0 NOT NULL,
	`modified_on` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `directory_accounts_shard` ON `directory_accounts` (`shard`);--> statement-breakpoint
CREATE TABLE `directory_zones` (
	`zone_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text,
	`name_rev` text,
	`created_on` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `directory_zones_name` ON `directory_zones` (`name`);--> statement-breakpoint
CREATE INDEX `directory_zones_name_rev` ON `directory_zones` (`name_rev`);--> statement-breakpoint
CREATE INDEX `directory_zones_account` ON `directory_zones` (`account_id`);--> statement-breakpoint
CREATE TABLE `shard_fences` (
	`account_id` text PRIMARY KEY NOT NULL,
	`fenced_on` text NOT NULL
);
--> statement-breakpoint
-- A database that predates shards is shard 0, holding every account and zone it already has.
INSERT INTO `directory_accounts` (`account_id`, `shard`, `modified_on`) SELECT `id`, 0, `created_on` FROM `accounts`;--> statement-breakpoint
INSERT INTO `directory_zones` (`zone_id`, `account_id`, `name`, `name_rev`, `created_on`)
  SELECT `id`, `account_id`, CASE WHEN `status` = 'deleted' THEN NULL ELSE `name` END,
         CASE WHEN `status` = 'deleted' THEN NULL ELSE `name_rev` END, `created_on` FROM `zones`;
