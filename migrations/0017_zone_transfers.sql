CREATE TABLE `transfer_acls` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`ip_range` text NOT NULL,
	`created_on` text NOT NULL,
	`modified_on` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `transfer_acls_account` ON `transfer_acls` (`account_id`);--> statement-breakpoint
CREATE TABLE `transfer_peers` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`ip` text,
	`port` integer,
	`ixfr_enable` integer DEFAULT 0 NOT NULL,
	`tsig_id` text,
	`created_on` text NOT NULL,
	`modified_on` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `transfer_peers_account` ON `transfer_peers` (`account_id`);--> statement-breakpoint
CREATE TABLE `transfer_tsigs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`algo` text NOT NULL,
	`secret` text NOT NULL,
	`created_on` text NOT NULL,
	`modified_on` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transfer_tsigs_account_name` ON `transfer_tsigs` (`account_id`,`name`);--> statement-breakpoint
CREATE TABLE `zone_transfers_incoming` (
	`zone_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`peers` text DEFAULT '[]' NOT NULL,
	`auto_refresh_seconds` integer DEFAULT 86400 NOT NULL,
	`soa_serial` integer,
	`created_on` text NOT NULL,
	`modified_on` text NOT NULL,
	`checked_on` text
);
--> statement-breakpoint
CREATE TABLE `zone_transfers_outgoing` (
	`zone_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`peers` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT 0 NOT NULL,
	`created_on` text NOT NULL,
	`modified_on` text NOT NULL,
	`checked_on` text,
	`last_transferred_on` text
);
